import type { I18nProvider } from "@refinedev/core";
import type { Locale as AntdLocale } from "antd/es/locale";
import antdEnglish from "antd/es/locale/en_US";
import dayjs from "dayjs";
import i18next from "i18next";
import { useSyncExternalStore } from "react";
import { initReactI18next } from "react-i18next";

import {
  DEFAULT_LANGUAGE,
  HTML_LANG,
  LANGUAGE_STORAGE_KEY,
  LANGUAGES,
  isLanguage,
  pickInitialLanguage,
  type Language,
} from "../shared/language";

// The language rule lives in src/shared so the public calculator can use it without this stack.
export * from "../shared/language";

// One lazy chunk per language and namespace: only the active language is ever downloaded. The
// calculator's words are the public page's (src/calculator/i18n.ts), not the console's.
const localeFiles = import.meta.glob<Record<string, unknown>>(
  ["../../locales/*/*.json", "!../../locales/*/calculator.json"],
  { import: "default" },
);

/**
 * The console's namespaces: one per locale file (`locales/<lng>/<ns>.json`), found rather than
 * listed, so a module's words arrive with its locale files and nothing else (a test holds every
 * declared module's `i18n` to this list). Read from the file names, not from the declarations:
 * those carry zod schemas, and the login page, which loads this file, has no use for them.
 */
export const NAMESPACES: readonly string[] = [
  ...new Set(
    Object.keys(localeFiles).map((path) => path.slice(path.lastIndexOf("/") + 1, -".json".length)),
  ),
].sort();

/**
 * What is read before the signed-in console has loaded: the login page, the session check and
 * its errors, and the tab's title (menu labels). The rest of NAMESPACES arrives with the
 * signed-in console (loadConsoleTexts), so the login page does not download the modules' words.
 */
const SIGNED_OUT_NAMESPACES: readonly string[] = ["common", "errors", "menu", "session"];

/** The namespaces loaded, in the active language and in every language switched to later. */
let wantedNamespaces: readonly string[] = SIGNED_OUT_NAMESPACES;

async function fetchTexts(language: Language): Promise<Record<string, Record<string, unknown>>> {
  const entries = await Promise.all(
    wantedNamespaces.map(async (ns) => {
      const load = localeFiles[`../../locales/${language}/${ns}.json`];
      return [ns, load ? await load() : {}] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/** Adds a language's texts to a running i18next (once per language). */
async function loadTexts(language: Language): Promise<void> {
  if (wantedNamespaces.every((ns) => i18next.hasResourceBundle(language, ns))) return;
  const texts = await fetchTexts(language);
  for (const [ns, bundle] of Object.entries(texts)) {
    i18next.addResourceBundle(language, ns, bundle, true, true);
  }
}

// antd bundles en_US as its default anyway, so only the Chinese tables are fetched, on demand.
// ConfigProvider always gets a locale object: going from none to one wraps its children in a new
// provider, which remounts the whole console and empties every half-filled form.
let antdLocale: AntdLocale = antdEnglish;

/** Fetches antd's table for `language` (dayjs's registers itself); applies nothing yet. */
async function loadComponentLocale(language: Language): Promise<AntdLocale> {
  if (language !== "cn-ZH") return antdEnglish;
  const [antd] = await Promise.all([import("antd/es/locale/zh_CN"), import("dayjs/locale/zh-cn")]);
  return antd.default;
}

function applyComponentLocale(language: Language, locale: AntdLocale): void {
  antdLocale = locale;
  dayjs.locale(language === "cn-ZH" ? "zh-cn" : "en");
}

function storeLanguage(language: Language): void {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Storage can be unavailable (private mode, quota); the choice then lasts for this visit.
  }
  document.documentElement.lang = HTML_LANG[language];
}

let latestRequest = 0;

/** Switches every layer at once: texts, antd, dayjs, `<html lang>`, and remembers the choice. */
export async function changeLanguage(language: Language): Promise<void> {
  const request = ++latestRequest;
  const [, locale] = await Promise.all([loadTexts(language), loadComponentLocale(language)]);
  // A newer switch started while this one was loading: let that one win.
  if (request !== latestRequest) return;
  applyComponentLocale(language, locale);
  storeLanguage(language);
  await i18next.changeLanguage(language);
}

function readStoredLanguage(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null;
  }
}

let initialisation: Promise<void> | undefined;

/** Loads the active language and starts i18next; safe to call more than once. */
export function initI18n(): Promise<void> {
  initialisation ??= (async () => {
    const language = pickInitialLanguage(readStoredLanguage(), navigator.languages ?? []);
    const [texts, locale] = await Promise.all([
      fetchTexts(language),
      loadComponentLocale(language),
    ]);
    applyComponentLocale(language, locale);
    await i18next.use(initReactI18next).init({
      resources: { [language]: texts },
      // Other languages arrive later, through changeLanguage.
      partialBundledLanguages: true,
      lng: language,
      supportedLngs: [...LANGUAGES],
      fallbackLng: false,
      load: "currentOnly",
      ns: [...NAMESPACES],
      defaultNS: "common",
      interpolation: { escapeValue: false },
      react: { useSuspense: false },
      returnEmptyString: false,
    });
    applyChinesePluralRules();
    // Stored right away so the http client's Accept-Language matches what the screen shows.
    storeLanguage(language);
  })();
  return initialisation;
}

/**
 * What the signed-in console's first screen reads (the frame and the dashboard): the other pages'
 * words follow when one of them first opens (loadModuleTexts), so the dashboard does not
 * download every module's texts.
 */
const FIRST_SCREEN_NAMESPACES: readonly string[] = [...SIGNED_OUT_NAMESPACES, "dashboard"];

/** Adds the first screen's namespaces to the active language, once. */
export async function loadConsoleTexts(): Promise<void> {
  await initI18n();
  wantedNamespaces = [...new Set([...wantedNamespaces, ...FIRST_SCREEN_NAMESPACES])];
  await loadTexts(currentLanguage());
}

let moduleTexts: Promise<void> | undefined;

/**
 * Adds every console namespace (the modules' pages') to the active language, and to every
 * language switched to later. One promise, shared by every page that waits for it; a failed load
 * is tried again by the next page that asks.
 */
export function loadModuleTexts(): Promise<void> {
  moduleTexts ??= (async () => {
    await initI18n();
    wantedNamespaces = NAMESPACES;
    await loadTexts(currentLanguage());
  })().catch((error: unknown) => {
    moduleTexts = undefined;
    throw error;
  });
  return moduleTexts;
}

/**
 * i18next derives plural rules from the language tag, and `cn-ZH` is not a real tag, so
 * `Intl.PluralRules("cn-ZH")` would quietly give English rules. Point it at `zh`.
 */
function applyChinesePluralRules(): void {
  const resolver = i18next.services.pluralResolver as {
    getRule: (code: string, options?: object) => unknown;
  };
  const getRule = resolver.getRule.bind(resolver);
  resolver.getRule = (code, options) => getRule(code === "cn-ZH" ? "zh" : code, options);
}

export function currentLanguage(): Language {
  return isLanguage(i18next.language) ? i18next.language : DEFAULT_LANGUAGE;
}

function subscribeToLanguage(onChange: () => void): () => void {
  i18next.on("languageChanged", onChange);
  return () => i18next.off("languageChanged", onChange);
}

/** antd's locale for the active language. */
export function useAntdLocale(): AntdLocale {
  return useSyncExternalStore(subscribeToLanguage, () => antdLocale);
}

export const i18nProvider: I18nProvider = {
  translate: (key: string, options?: unknown, defaultMessage?: string) => {
    // Refine calls both translate(key, options, default) and translate(key, default).
    const fallback = typeof options === "string" ? options : defaultMessage;
    const values = typeof options === "object" && options !== null ? options : {};
    // Keys without a namespace (Refine's own: `notifications.success`, …) live in `common`.
    return i18next.t(key, { ...values, defaultValue: fallback ?? key });
  },
  changeLocale: (locale: string) => changeLanguage(isLanguage(locale) ? locale : DEFAULT_LANGUAGE),
  getLocale: () => currentLanguage(),
};
