import sanitizeHtml from "sanitize-html";

import { CONTENT_IMAGE_SRC } from "../../src/shared/modules/content";
import { BIDI_CONTROL_PROBLEM, hasBidiControl } from "../../src/shared/text";
import { HttpError } from "../errors";

/**
 * The allow-list every stored body passes (help articles, merchant announcements): what the
 * editor can make (headings, paragraphs, lists, links, images, tables, emphasis, code) and
 * nothing else. Everything not listed is dropped, its text kept when it is harmless:
 * - no script, style, iframe, object, embed, form, svg, math, meta, link, base: removed with
 *   their content (`nonTextTags`), so a payload never survives as text that looks like code;
 * - no attribute but those listed per tag: no event handlers (`on*`), no `style` (no overlays,
 *   no hidden text, no CSS expressions), no `class` or `id` (no borrowing the console's styles);
 * - links only to http, https, mailto and tel (no `javascript:`, `data:`, `vbscript:`, no
 *   protocol-relative `//host`), and each opens apart from the page (`noopener noreferrer`);
 * - images only from this server's own uploads (CONTENT_IMAGE_SRC): no `data:` images, no
 *   tracking pixels or mixed content from elsewhere, and never an iframe, from anywhere.
 * sanitize-html parses with htmlparser2 as a browser would (entities decoded before the scheme
 * is checked, so `jav&#x61;script:` is caught) and re-serialises, escaping text.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    "h2",
    "h3",
    "h4",
    "p",
    "br",
    "hr",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "code",
    "pre",
    "blockquote",
    "ul",
    "ol",
    "li",
    "a",
    "img",
    "table",
    "colgroup",
    "col",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
  ],
  allowedAttributes: {
    a: ["href", "target", "rel"],
    img: ["src", "alt", "title", "width", "height"],
    ol: ["start"],
    th: ["colspan", "rowspan"],
    td: ["colspan", "rowspan"],
  },
  allowedSchemes: ["http", "https", "mailto", "tel"],
  allowedSchemesByTag: { img: [] },
  allowedSchemesAppliedToAttributes: ["href", "src"],
  allowProtocolRelative: false,
  allowedIframeHostnames: [],
  disallowedTagsMode: "discard",
  nonTextTags: [
    "script",
    "style",
    "textarea",
    "option",
    "noscript",
    "iframe",
    "object",
    "embed",
    "svg",
    "math",
    "template",
    "xmp",
    "noembed",
    "noframes",
    "title",
  ],
  enforceHtmlBoundary: false,
  parseStyleAttributes: false,
  exclusiveFilter: (frame) => {
    // An image from anywhere but this server's uploads goes, whole.
    if (frame.tag === "img") return !CONTENT_IMAGE_SRC.test(frame.attribs.src ?? "");
    return false;
  },
  transformTags: {
    a: (tagName, attribs) => {
      const href = attribs.href;
      return {
        tagName,
        attribs: {
          ...(href ? { href } : {}),
          target: "_blank",
          rel: "noopener noreferrer nofollow",
        },
      };
    },
  },
};

/** A numeric attribute kept only when it is a small whole number. */
const SMALL_NUMBER = /^[1-9][0-9]{0,3}$/;

/** A body as it may be stored and shown: cleaned against the allow-list above. */
export function sanitizeBody(html: string): string {
  const clean = sanitizeHtml(html, {
    ...OPTIONS,
    transformTags: {
      ...OPTIONS.transformTags,
      img: (tagName, attribs) => ({ tagName, attribs: numeric(attribs, ["width", "height"]) }),
      td: (tagName, attribs) => ({ tagName, attribs: numeric(attribs, ["colspan", "rowspan"]) }),
      th: (tagName, attribs) => ({ tagName, attribs: numeric(attribs, ["colspan", "rowspan"]) }),
      ol: (tagName, attribs) => ({ tagName, attribs: numeric(attribs, ["start"]) }),
    },
  });
  return clean.trim();
}

function numeric(attribs: sanitizeHtml.Attributes, keys: readonly string[]) {
  const kept = { ...attribs };
  for (const key of keys) {
    if (key in kept && !SMALL_NUMBER.test(kept[key] ?? "")) delete kept[key];
  }
  return kept;
}

/** Whether a cleaned body shows anything: text, or an image. */
export function hasContent(clean: string): boolean {
  if (/<img\s/i.test(clean)) return true;
  const text = sanitizeHtml(clean, { allowedTags: [], allowedAttributes: {} });
  return text.replace(/&nbsp;|\s/g, "").length > 0;
}

/**
 * A cleaned body's refusal when it holds a bidirectional control (the text rule's "right-to-left
 * override" spoof, src/shared/text.ts), as a title's is refused: 400 VALIDATION_ERROR naming the
 * field. Checked after cleaning, which has decoded entities, so `&#x202E;` is caught too.
 */
export function bodyTextError(field: string, clean: string): HttpError | undefined {
  if (!hasBidiControl(clean)) return undefined;
  const message = `Text ${BIDI_CONTROL_PROBLEM}`;
  return new HttpError(400, `Invalid ${field}: ${message}`, "VALIDATION_ERROR", {
    issues: [{ path: field, message }],
  });
}

/** 400 EMPTY_BODY naming the language whose body shows nothing once cleaned (only a script). */
const emptyBody = (language: string) =>
  new HttpError(
    400,
    `The ${language} body shows nothing once cleaned (only markup that is not allowed)`,
    "EMPTY_BODY",
    { language },
  );

/**
 * The two bodies as they may be stored: cleaned by the allow-list. A body that shows nothing
 * after cleaning (only a script, say) is refused, as an empty one is, and so is one holding a
 * bidirectional control, as a title is (bodyTextError).
 */
export function cleanBodies<B extends { bodyEn: string; bodyZh: string }>(body: B): B {
  const bodyEn = sanitizeBody(body.bodyEn);
  const bodyZh = sanitizeBody(body.bodyZh);
  const refusal = bodyTextError("bodyEn", bodyEn) ?? bodyTextError("bodyZh", bodyZh);
  if (refusal) throw refusal;
  if (!hasContent(bodyEn)) throw emptyBody("en-US");
  if (!hasContent(bodyZh)) throw emptyBody("cn-ZH");
  return { ...body, bodyEn, bodyZh };
}
