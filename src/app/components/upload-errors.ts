import type { OpenNotificationParams } from "@refinedev/core";

import { isApiError, translateApiError, type Translate } from "../../providers/errors";
import { errorCodeOf, FORM_ERROR_KEY_PREFIX } from "./notifications";

/**
 * How a screen that uploads documents (a rider's, a business's) words the failures of its calls:
 * the codes it explains in its own namespace (`<namespace>:errors.<CODE>`; a 413 without a code
 * is a file too large), every other failure as the catalogue says.
 */
export function uploadErrors(namespace: string, ownCodes: readonly string[]) {
  const text = (error: unknown, t: Translate): string => {
    const code = errorCodeOf(error);
    const own = ownCodes.find((candidate) => candidate === code);
    if (own) return t(`${namespace}:errors.${own}`);
    if (isApiError(error) && error.statusCode === 413) {
      return t(`${namespace}:errors.DOCUMENT_TOO_LARGE`);
    }
    return translateApiError(error, t);
  };
  /**
   * Refine `errorNotification` for an upload: coded and 413 failures explained with the screen's
   * texts; the rest is left to the central handler, which has already shown it.
   */
  const notification =
    (t: Translate, title: string) =>
    (error?: unknown): OpenNotificationParams | false => {
      const code =
        errorCodeOf(error) ?? (isApiError(error) && error.statusCode === 413 ? "413" : "");
      if (!code) return false;
      return {
        key: `${FORM_ERROR_KEY_PREFIX}${code}`,
        type: "error",
        message: title,
        description: text(error, t),
      };
    };
  return { text, notification };
}
