import i18next from "i18next";
import { initReactI18next } from "react-i18next";

import cnErrors from "../../../locales/cn-ZH/errors.json";
import enErrors from "../../../locales/en-US/errors.json";
import type { Translate } from "../../../src/providers/errors";

/**
 * The providers translate through i18next's global instance, as the running console does; tests
 * load the real `errors` texts into it so assertions read the wording staff see.
 */
export async function initErrorTexts(language: "en-US" | "cn-ZH" = "en-US"): Promise<void> {
  await i18next.init({
    lng: language,
    fallbackLng: "en-US",
    ns: ["errors"],
    defaultNS: "errors",
    resources: { "en-US": { errors: enErrors }, "cn-ZH": { errors: cnErrors } },
    interpolation: { escapeValue: false },
  });
  await i18next.changeLanguage(language);
}

export const t: Translate = (key, options) => String(i18next.t(key, options));

const LOCALE_FILES = import.meta.glob<{ default: Record<string, unknown> }>(
  "../../../locales/*/*.json",
  { eager: true },
);

/**
 * For tests that render pages: the real texts of `namespaces` in both languages, from locales/,
 * loaded into i18next's global instance and wired to React, in `language`. `fallback: false`
 * lets a missing Chinese text show as its key instead of the English one.
 */
export async function initPageTexts(
  namespaces: readonly string[],
  { language = "en-US", fallback = "en-US" }: { language?: string; fallback?: string | false } = {},
): Promise<void> {
  const resources: Record<string, Record<string, Record<string, unknown>>> = {};
  // Every generated screen falls back to the module kit's own words.
  const all = [...new Set([...namespaces, "kit"])];
  for (const lng of ["en-US", "cn-ZH"]) {
    resources[lng] = Object.fromEntries(
      all.map((ns) => {
        const file = LOCALE_FILES[`../../../locales/${lng}/${ns}.json`];
        if (!file) throw new Error(`no locales/${lng}/${ns}.json`);
        return [ns, file.default];
      }),
    );
  }
  await i18next.use(initReactI18next).init({
    lng: language,
    fallbackLng: fallback,
    ns: all,
    defaultNS: "common",
    resources,
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  await i18next.changeLanguage(language);
}
