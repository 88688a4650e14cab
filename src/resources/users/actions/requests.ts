import type { BaseKey } from "@refinedev/core";
import { errorCodeOf } from "../../../app/components/notifications";
import { translateApiError, type Translate } from "../../../providers/errors";
import { remarkProblem as kitRemarkProblem } from "../../../shared/kit/module";
import { isHttpUrl, USER_URL_MAX_LENGTH } from "../../../shared/user-actions";

/**
 * The calls the user detail page makes, as `custom` requests (url relative to the API base,
 * method, JSON body). Components send them through useCustomMutation; the contract tests send
 * the same descriptors through the data provider against msw.
 */
export interface UserActionRequest {
  url: string;
  method: "patch" | "post";
  values: Record<string, unknown>;
}

const userPath = (id: BaseKey) => `/api/users/${encodeURIComponent(String(id))}`;

export const banRequest = (id: BaseKey, ban: boolean, remark?: string): UserActionRequest => ({
  url: `${userPath(id)}/ban`,
  method: "patch",
  values: ban ? { ban, remark: (remark ?? "").trim() } : { ban },
});

export const vipRequest = (accountNumber: string, isVip: boolean): UserActionRequest => ({
  url: "/user-mgmt/set-vip-status",
  method: "post",
  values: { account_number: accountNumber, is_vip: isVip },
});

/** An empty field clears the URL (null). */
export const urlRequest = (id: BaseKey, url: string): UserActionRequest => {
  const trimmed = url.trim();
  return { url: `${userPath(id)}/url`, method: "patch", values: { url: trimmed || null } };
};

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

/** What is wrong with a remark typed when banning, as a `users:` key, or undefined. */
export function remarkProblem(remark: string | undefined): string | undefined {
  // The one remark rule (the module kit's), in this page's words.
  const problem = kitRemarkProblem(remark);
  if (problem === "invalid") return "kit:decision.remarkInvalid";
  return problem && `actions.remark.${problem}`;
}

/** What is wrong with a URL typed in, as a `users:` key, or undefined (empty clears). */
export function urlProblem(url: string | undefined): string | undefined {
  const trimmed = (url ?? "").trim();
  if (trimmed === "") return undefined;
  if (trimmed.length > USER_URL_MAX_LENGTH) return "actions.url.tooLong";
  if (!isHttpUrl(trimmed)) return "actions.url.invalid";
  return undefined;
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
