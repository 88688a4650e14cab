import type { OpenNotificationParams } from "@refinedev/core";
import { errorCodeOf, FORM_ERROR_KEY_PREFIX } from "../../../app/components/notifications";
import { isApiError, translateApiError, type Translate } from "../../../providers/errors";

/** Codes the rider calls answer with, explained in the `riders` namespace. */
const OWN_CODES = [
  "DOCUMENT_TOO_LARGE",
  "INVALID_DOCUMENT",
  "INVALID_DOCUMENT_TYPE",
  "TOO_MANY_DOCUMENTS",
  "UNSUPPORTED_MEDIA_TYPE",
] as const;

/** A failure of a rider call as a sentence in the current language. */
export function riderErrorText(error: unknown, t: Translate): string {
  const code = errorCodeOf(error);
  const own = OWN_CODES.find((candidate) => candidate === code);
  if (own) return t(`riders:errors.${own}`);
  if (isApiError(error) && error.statusCode === 413) return t("riders:errors.DOCUMENT_TOO_LARGE");
  return translateApiError(error, t);
}

/**
 * Refine `errorNotification` for the section's mutations: coded and 413 failures explained with
 * the section's texts; the rest is left to the central handler, which has already shown it.
 */
export function riderErrorNotification(t: Translate, title: string) {
  return (error?: unknown): OpenNotificationParams | false => {
    const code = errorCodeOf(error) ?? (isApiError(error) && error.statusCode === 413 ? "413" : "");
    if (!code) return false;
    return {
      key: `${FORM_ERROR_KEY_PREFIX}${code}`,
      type: "error",
      message: title,
      description: riderErrorText(error, t),
    };
  };
}
