import type { OpenNotificationParams } from "@refinedev/core";

import { handleApiError } from "../../providers/error-handler";
import { isPasskeyCeremonyError, describePasskeyFailure } from "../../providers/passkey";
import type { Translate } from "../../providers/errors";
import { errorCodeOf, FORM_ERROR_KEY_PREFIX } from "../components/notifications";

/**
 * A failed passkey action on Setting, said once: a cancelled prompt or a coded refusal
 * (PASSKEY_EXISTS, SECOND_FACTOR_REQUIRED, …) as this card's toast under `title`; any other
 * failure (no answer, a dead session) by the central handler, as every request's.
 */
export function notifyPasskeyFailure(
  error: unknown,
  title: string,
  t: Translate,
  open: ((params: OpenNotificationParams) => void) | undefined,
): void {
  const code = isPasskeyCeremonyError(error) ? `passkey-${error.reason}` : errorCodeOf(error);
  if (code === undefined) {
    handleApiError(error);
    return;
  }
  open?.({
    key: `${FORM_ERROR_KEY_PREFIX}${code}`,
    type: "error",
    message: title,
    description: describePasskeyFailure(error, t),
  });
}
