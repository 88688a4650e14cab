import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { menuTexts } from "../../build/menu-texts";
import { DASHBOARD_SECTIONS } from "../../src/app/dashboard/sections";
import { flattenMenu } from "../../src/app/menu";
import { MENU, MODULES } from "../../src/app/registry";
import { LANGUAGES, NAMESPACES } from "../../src/providers/i18n";
import { ADMIN_STATUSES } from "../../src/resources/administrators/status-tag";
import { administrators } from "../../src/shared/modules/administrators";
import { PASSWORD_RULES } from "../../src/shared/password-policy";
import { PERMISSION_MODULES } from "../../src/shared/permissions";

const ROOT = join(import.meta.dirname, "../..");
const LOCALES = join(ROOT, "locales");

type Texts = { [key: string]: string | Texts };

/** A namespace as the console reads it (the menu's gathers the modules' labels). */
function read(language: string, ns: string): Texts {
  if (ns === "menu") return menuTexts(join(LOCALES, language)) as Texts;
  return JSON.parse(readFileSync(join(LOCALES, language, `${ns}.json`), "utf8")) as Texts;
}

/** Every leaf as `path.to.key` → text. */
function leaves(texts: Texts, prefix = ""): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(texts)) {
    if (typeof value === "object" && value !== null) {
      for (const [k, v] of leaves(value, `${prefix}${key}.`)) out.set(k, v);
    } else {
      out.set(`${prefix}${key}`, value);
    }
  }
  return out;
}

const namespaceFiles = (language: string) =>
  readdirSync(join(LOCALES, language))
    .filter((file) => file.endsWith(".json"))
    .map((file) => file.replace(/\.json$/, ""))
    .sort();

/** All keys of one language as `ns:path.to.key`. */
function allKeys(language: string): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const ns of namespaceFiles(language)) {
    for (const [key, value] of leaves(read(language, ns))) out.set(`${ns}:${key}`, value);
  }
  return out;
}

const [english, chinese] = LANGUAGES.map(allKeys) as [Map<string, unknown>, Map<string, unknown>];

/** A key used in code exists when it, or its plural forms, are in the table. */
const exists = (texts: Map<string, unknown>, key: string) =>
  texts.has(key) || texts.has(`${key}_other`);

const missingFrom = (texts: Map<string, unknown>, keys: Iterable<string>) =>
  [...keys].filter((key) => !exists(texts, key));

describe("translations", () => {
  it("ship the same namespaces in every language", () => {
    expect(namespaceFiles("cn-ZH")).toEqual(namespaceFiles("en-US"));
    // `calculator` belongs to the public page, which loads it itself (src/calculator/i18n.ts).
    expect(namespaceFiles("en-US")).toEqual([...NAMESPACES, "calculator"].sort());
  });

  it("count a list's total in the singular for one ('1 submission', never '1 submissions')", () => {
    const totals = [...english.keys()].filter((key) => /:list\.total(_\w+)?$/.test(key));
    const namespaces = new Set(totals.map((key) => key.split(":")[0]));
    expect(namespaces.size).toBeGreaterThan(5);
    for (const ns of namespaces) {
      expect(english.get(`${ns}:list.total_one`), ns).toMatch(/^\{\{total\}\} \w/);
      expect(english.get(`${ns}:list.total_other`), ns).toBeDefined();
      expect(english.has(`${ns}:list.total`), ns).toBe(false);
    }
  });

  it("load every declared module's namespace in the console, its related lists' too", () => {
    expect(NAMESPACES).toEqual(expect.arrayContaining(MODULES.map((module) => module.i18n)));
    const related = MODULES.flatMap((module) =>
      Object.values(module.related ?? {}).map((list) => list.i18n),
    );
    expect(related.length).toBeGreaterThan(0);
    expect(NAMESPACES).toEqual(expect.arrayContaining(related));
  });

  it("have no key in English that Chinese lacks", () => {
    expect(missingFrom(chinese, english.keys())).toEqual([]);
  });

  it("have no key in Chinese that English lacks", () => {
    expect(missingFrom(english, chinese.keys())).toEqual([]);
  });

  it("have a non-empty text for every key", () => {
    const empty = [...english, ...chinese].filter(
      ([, text]) => typeof text !== "string" || text.trim() === "",
    );
    expect(empty.map(([key]) => key)).toEqual([]);
  });

  it("keep an action button's visible word inside its accessible name (axe: label-in-name)", () => {
    // A button shows `decision.<verb>` (its module's, else the kit's) and is named
    // `decision.<verb>For` with the record's name: the name must contain what it shows.
    for (const texts of [english, chinese]) {
      const named = [...texts].filter(([key]) => /:decision\.\w+For$/.test(key));
      expect(named.length).toBeGreaterThan(10);
      const hidden = named.flatMap(([key, label]) => {
        const [ns, path] = key.split(":") as [string, string];
        const verb = path.slice("decision.".length, -"For".length);
        const word = texts.get(`${ns}:decision.${verb}`) ?? texts.get(`kit:decision.${verb}`);
        const squeeze = (text: unknown) => String(text).replace(/\s/g, "");
        return word !== undefined && !squeeze(label).includes(squeeze(word)) ? [key] : [];
      });
      expect(hidden).toEqual([]);
    }
  });

  it("use the same placeholders in both languages", () => {
    const placeholders = (text: unknown) =>
      [...String(text).matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort();
    const differing = [...english].filter(
      ([key, text]) =>
        JSON.stringify(placeholders(text)) !== JSON.stringify(placeholders(chinese.get(key))),
    );
    expect(differing.map(([key]) => key)).toEqual([]);
  });

  it("call one thing by one Chinese word: a merchant is 商户, a UCSI ID 证件 (the walk found both words on one screen)", () => {
    const mixed = [...chinese].filter(([, text]) => /商家|UCSI ID/.test(String(text)));
    expect(mixed.map(([key]) => key)).toEqual([]);
  });

  it("name every menu entry, implemented or not, in both languages", () => {
    const labels = flattenMenu(MENU).map((entry) => entry.label);
    expect(labels.length).toBeGreaterThan(MODULES.length);
    expect(missingFrom(english, labels)).toEqual([]);
    expect(missingFrom(chinese, labels)).toEqual([]);
  });

  it("name every permission module, password rule, status and dashboard figure", () => {
    const statusAction = administrators.actions.status;
    const keys = [
      ...PERMISSION_MODULES.map((m) => `admin:permissions.modules.${m.key}`),
      ...PASSWORD_RULES.map((r) => `admin:password.rules.${r.key}`),
      ...ADMIN_STATUSES.map((s) => `admin:status.${s}`),
      // The status buttons (status-toggle.tsx) word each verb of the declared status action.
      ...statusAction.verbs.flatMap((verb) => [
        ...["", "Named", "Title", "Body"].map((part) => `admin:statusToggle.${verb}${part}`),
        `admin:statusToggle.${statusAction.done[verb]}`,
      ]),
      ...DASHBOARD_SECTIONS.flatMap((section) => [
        `dashboard:${section.key}.title`,
        ...section.figures.map((figure) => `dashboard:${section.key}.${figure}`),
      ]),
    ];
    expect(missingFrom(english, keys)).toEqual([]);
    expect(missingFrom(chinese, keys)).toEqual([]);
  });

  it("have a text for every literal key the console's code asks for", () => {
    const used = literalKeysInSource();
    expect(used.length).toBeGreaterThan(100);
    const missing = used.filter(({ key }) => !exists(english, key) || !exists(chinese, key));
    expect(missing.map(({ key, file }) => `${key} (${file})`)).toEqual([]);
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/**
 * `t("key")` / `t("ns:key")` string literals in src/app and src/resources, resolved against
 * the file's `useTranslation("ns")` (keys built at run time are covered by the test above).
 */
function literalKeysInSource(): { key: string; file: string }[] {
  const files = [join(ROOT, "src/app"), join(ROOT, "src/resources")].flatMap(sourceFiles);
  return files.flatMap((path) => {
    const source = readFileSync(path, "utf8");
    const file = relative(ROOT, path);
    const defaultNs = /useTranslation\("(\w+)"\)/.exec(source)?.[1];
    const keys = [...source.matchAll(/\bt\(\s*"([^"]+)"/g)].map((m) => m[1] ?? "");
    // Ternaries choosing between two literal keys: t(cond ? "a" : "b").
    for (const m of source.matchAll(/\bt\(\s*[\w.?!]+\s*\?\s*"([^"]+)"\s*:\s*"([^"]+)"/g)) {
      keys.push(m[1] ?? "", m[2] ?? "");
    }
    return keys.flatMap((key) => {
      if (key.includes(":")) return [{ key, file }];
      return defaultNs ? [{ key: `${defaultNs}:${key}`, file }] : [];
    });
  });
}
