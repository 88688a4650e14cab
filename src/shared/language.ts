/**
 * The product's languages and the rule for picking one, shared by the console (src/providers/
 * i18n.ts) and the public calculator, which must not load the console's i18n stack.
 */

/** The product's language tags (`cn-ZH` is its own tag for Simplified Chinese). */
export const LANGUAGES = ["en-US", "cn-ZH"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en-US";
export const LANGUAGE_STORAGE_KEY = "language";

/** BCP 47 tags for `<html lang>`: `cn-ZH` means nothing to browsers and screen readers. */
export const HTML_LANG: Record<Language, string> = { "en-US": "en", "cn-ZH": "zh-CN" };

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The language to start in: the stored choice, else the first browser language we support
 * (any `zh*` is Simplified Chinese, any `en*` English), else English.
 */
export function pickInitialLanguage(
  stored: string | null | undefined,
  browserLanguages: readonly string[],
): Language {
  if (isLanguage(stored)) return stored;
  for (const tag of browserLanguages) {
    const primary = tag.toLowerCase().split(/[-_]/)[0];
    if (primary === "zh") return "cn-ZH";
    if (primary === "en") return "en-US";
  }
  return DEFAULT_LANGUAGE;
}
