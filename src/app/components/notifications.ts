import type { OpenNotificationParams } from "@refinedev/core";
import { isApiError, translateApiError, type Translate } from "../../providers/errors";

/**
 * Refine `errorNotification` for a form's mutation. Coded errors (EMAIL_TAKEN, …) are the form's
 * to explain, translated; every other failure is already shown once by the providers' central
 * error handler, so the form stays quiet rather than toast it twice. Codes the form writes under
 * a field (`shownInline`) get no toast either.
 */
/**
 * The key prefix marking a form's own error toast. Every other error notification Refine opens
 * repeats a failure the central handler has already shown, and the console leaves it out.
 */
export const FORM_ERROR_KEY_PREFIX = "form-error:";

export function codedErrorNotification(
  t: Translate,
  title: string,
  shownInline: readonly string[] = [],
) {
  return (error?: unknown): OpenNotificationParams | false => {
    const code = errorCodeOf(error);
    if (code === undefined || shownInline.includes(code)) return false;
    return {
      key: `${FORM_ERROR_KEY_PREFIX}${code}`,
      type: "error",
      message: title,
      description: translateApiError(error, t),
    };
  };
}

/** The stable error code of a failure, when the server sent one. */
export function errorCodeOf(error: unknown): string | undefined {
  return isApiError(error) && error.kind === "coded" ? error.code : undefined;
}
