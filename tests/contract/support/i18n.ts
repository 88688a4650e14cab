import i18next from "i18next";

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
