/**
 * The calculator's own translation mechanism: one JSON table per language
 * (locales/<lng>/calculator.json), looked up by dotted key with `{{name}}` placeholders. The
 * console's i18next + react-i18next stack would cost the public page ~15 kB gzip for nothing it
 * needs. Pure apart from the lazy import: no React here.
 */
import {
  HTML_LANG,
  LANGUAGE_STORAGE_KEY,
  pickInitialLanguage,
  type Language,
} from "../shared/language";

export type Texts = { [key: string]: string | Texts };
export type Translate = (key: string, values?: Record<string, string>) => string;

// One lazy chunk per language: only the active one is downloaded.
const tables = import.meta.glob<Texts>("../../locales/*/calculator.json", { import: "default" });

const loaded = new Map<Language, Promise<Texts>>();

export function loadCalculatorTexts(language: Language): Promise<Texts> {
  let texts = loaded.get(language);
  if (!texts) {
    const load = tables[`../../locales/${language}/calculator.json`];
    if (!load) throw new Error(`No calculator texts for ${language}`);
    texts = load();
    // A failed download must be retried on the next attempt, not remembered.
    texts.catch(() => loaded.delete(language));
    loaded.set(language, texts);
  }
  return texts;
}

/** A translator over one table; a missing key shows itself rather than an empty string. */
export function createTranslator(texts: Texts): Translate {
  return (key, values) => {
    let node: string | Texts | undefined = texts;
    for (const part of key.split(".")) {
      node = typeof node === "object" ? node[part] : undefined;
    }
    if (typeof node !== "string") return key;
    return values
      ? node.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, name: string) => values[name] ?? m)
      : node;
  };
}

export function readStoredLanguage(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** The console's rule: the stored choice, else the browser's (any zh → cn-ZH), else English. */
export function initialLanguage(): Language {
  return pickInitialLanguage(readStoredLanguage(), navigator.languages ?? [navigator.language]);
}

/** Remembers the choice under the console's key and tells the browser the page's language. */
export function applyLanguage(language: Language): void {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Storage can be unavailable (private mode, quota); the choice then lasts for this visit.
  }
  document.documentElement.lang = HTML_LANG[language];
}
