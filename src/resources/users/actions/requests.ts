import type { BaseKey } from "@refinedev/core";
import { errorCodeOf } from "../../../app/components/notifications";
import { translateApiError, type Translate } from "../../../providers/errors";

/**
 * The calls the user detail page makes itself (the password reset, the history), as `custom`
 * requests (url relative to the API base, method, JSON body); ban, VIP and the URL are the users
 * declaration's actions, sent by the kit. Components send them through useCustomMutation; the
 * contract tests send the same descriptors through the data provider against msw.
 */
export interface UserActionRequest {
  url: string;
  method: "patch" | "post";
  values: Record<string, unknown>;
}

const userPath = (id: BaseKey) => `/api/users/${encodeURIComponent(String(id))}`;

export const resetPasswordRequest = (accountNumber: string): UserActionRequest => ({
  url: "/user-mgmt/reset-user-password",
  method: "post",
  values: { account_number: accountNumber },
});

export const auditPath = (id: BaseKey) => `${userPath(id)}/audit`;

/** `POST /user-mgmt/reset-user-password` answer. */
export interface ResetPasswordAnswer {
  status: "sent";
  expires_at: string;
}

/** The codes the user actions explain in their own words (users:errors.<CODE>). */
export const USER_ACTION_CODES = [
  "NO_EMAIL",
  "ALREADY_IN_STATE",
  "MAIL_FAILED",
  "VALIDATION_ERROR",
  "NOT_FOUND",
] as const;

/**
 * A failed user action as a sentence in the current language: the codes above through
 * `users:errors.<CODE>`, anything else as the shared error catalogue words it.
 * `t` must be the `users` namespace's translate function.
 */
export function actionErrorText(error: unknown, t: Translate): string {
  const code = errorCodeOf(error);
  if (code && (USER_ACTION_CODES as readonly string[]).includes(code)) {
    return t(`errors.${code}`);
  }
  return translateApiError(error, t);
}
