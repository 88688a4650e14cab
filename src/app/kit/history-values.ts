/**
 * What a record's history shows of a value its declaration does not draw as a cell: rich text as
 * the text a reader sees, and a structured value (an object, a list) as words rather than JSON.
 */
import type { ModuleDecl } from "../../shared/kit/module";

/** The fields a module's forms write as rich text (the editor's HTML): their `richText` inputs. */
export const richTextFields = (module: Pick<ModuleDecl, "create" | "edit">): ReadonlySet<string> =>
  new Set(
    [module.create, module.edit].flatMap((form) =>
      Object.entries(form?.inputs ?? {}).flatMap(([key, hint]) =>
        hint?.kind === "richText" ? [key] : [],
      ),
    ),
  );

/** How much of a rich text a history line shows. */
export const HISTORY_TEXT_MAX = 200;

const BLOCKS = new Set([
  "P",
  "DIV",
  "H1",
  "H2",
  "H3",
  "H4",
  "H5",
  "H6",
  "LI",
  "BR",
  "BLOCKQUOTE",
  "PRE",
  "TR",
]);

/**
 * HTML as the text a reader sees: the markup gone, its blocks (paragraphs, headings, list items)
 * apart, at most HISTORY_TEXT_MAX characters. Parsed inertly: nothing of it runs or loads.
 */
export function htmlText(html: string): string {
  const body = new DOMParser().parseFromString(html, "text/html").body;
  const parts: string[] = [];
  const walk = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      parts.push(node.textContent ?? "");
      return;
    }
    const block = node instanceof Element && BLOCKS.has(node.tagName);
    if (block) parts.push("\n");
    node.childNodes.forEach(walk);
    if (block) parts.push("\n");
  };
  walk(body);
  const text = parts
    .join("")
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter((line) => line !== "")
    .join(" · ");
  return text.length > HISTORY_TEXT_MAX ? `${text.slice(0, HISTORY_TEXT_MAX).trimEnd()}…` : text;
}

/** A value that is neither text, a number nor a boolean, nor a list of them. */
export const isStructured = (value: unknown) =>
  typeof value === "object" &&
  value !== null &&
  (!Array.isArray(value) || value.some((item) => typeof item === "object" && item !== null));

/**
 * A structured value in words: a list item by item, an object as "label: value" pairs, each key
 * named by `label` (the module's words for it) and each plain value by `plain`.
 */
export function structuredText(
  value: unknown,
  label: (key: string) => string,
  plain: (value: unknown) => string,
): string {
  if (Array.isArray(value)) {
    return value.map((item) => structuredText(item, label, plain)).join("; ");
  }
  if (typeof value === "object" && value !== null) {
    return Object.entries(value)
      .map(([key, item]) => `${label(key)}: ${structuredText(item, label, plain)}`)
      .join(", ");
  }
  return plain(value);
}
