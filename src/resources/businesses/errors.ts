import type { OpenNotificationParams } from "@refinedev/core";

import { errorCodeOf, FORM_ERROR_KEY_PREFIX } from "../../app/components/notifications";
import { isApiError, translateApiError, type Translate } from "../../providers/errors";

/** Codes the document calls answer with, explained in the `business` namespace. */
const OWN_CODES = [
  "DOCUMENT_TOO_LARGE",
  "DOCUMENT_TYPE_MISMATCH",
  "DOCUMENT_REQUIRED",
  "INVALID_DOCUMENT",
  "INVALID_DOCUMENT_TYPE",
  "TOO_MANY_DOCUMENTS",
  "TOO_MANY_FILES",
  "UNSUPPORTED_MEDIA_TYPE",
] as const;

/** A failure of a document call as a sentence in the current language. */
export function documentErrorText(error: unknown, t: Translate): string {
  const code = errorCodeOf(error);
  const own = OWN_CODES.find((candidate) => candidate === code);
  if (own) return t(`business:errors.${own}`);
  if (isApiError(error) && error.statusCode === 413) return t("business:errors.DOCUMENT_TOO_LARGE");
  return translateApiError(error, t);
}

/**
 * Refine `errorNotification` for an upload: coded and 413 failures explained with the page's
 * texts; the rest is left to the central handler, which has already shown it.
 */
export function documentErrorNotification(t: Translate, title: string) {
  return (error?: unknown): OpenNotificationParams | false => {
    const code = errorCodeOf(error) ?? (isApiError(error) && error.statusCode === 413 ? "413" : "");
    if (!code) return false;
    return {
      key: `${FORM_ERROR_KEY_PREFIX}${code}`,
      type: "error",
      message: title,
      description: documentErrorText(error, t),
    };
  };
}
