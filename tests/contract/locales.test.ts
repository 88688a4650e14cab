import { describe, expect, it } from "vitest";

import cnErrors from "../../locales/cn-ZH/errors.json";
import enErrors from "../../locales/en-US/errors.json";
import { SERVER_MESSAGE_CATALOGUE, KIND_CATALOGUE } from "../../src/providers/error-catalogue";

function keysOf(texts: object, prefix = ""): string[] {
  return Object.entries(texts).flatMap(([key, value]) =>
    typeof value === "object" && value !== null
      ? keysOf(value as object, `${prefix}${key}.`)
      : [`${prefix}${key}`],
  );
}

const STABLE_CODES = [
  "VALIDATION_ERROR",
  "INVALID_QUERY",
  "NOT_FOUND",
  "EMAIL_TAKEN",
  "WEAK_PASSWORD",
  "LAST_ADMIN_HOLDER",
  "SELF_STATUS_CHANGE",
  "SUPER_ADMIN_IMMUTABLE",
  "SUPER_ADMIN_ONLY",
  "PERMISSION_NOT_HELD",
  "WRONG_CURRENT_PASSWORD",
  "RATE_LIMITED",
  "ACCOUNT_LOCKED",
  "METHOD_NOT_ALLOWED",
  "INTERNAL_ERROR",
  "QUERY_TIMEOUT",
  "DATABASE_UNAVAILABLE",
  "SERVER_DRAINING",
  "RANGE_REVERSED",
  "RANGE_TOO_LONG",
  "STATEMENT_PERIOD_TOO_LONG",
  "STATEMENT_TOO_MANY_ROWS",
  "RESET_LINK_INVALID",
  "RESET_LINK_EXPIRED",
  "RESET_LINK_USED",
  "WRONG_CREDENTIALS",
  "USER_BANNED",
  // Four eyes: the maker's reason for a second approver, and a change already waiting.
  "REASON_REQUIRED",
  "REASON_TOO_LONG",
  "REASON_INVALID",
  "CHANGE_PENDING",
  // Staff sign-in: the second factor, the step-up before a sensitive action, the authenticator app.
  "TOTP_CODE_FORMAT",
  "RECOVERY_CODE_FORMAT",
  "WRONG_CODE",
  "LOGIN_TICKET_EXPIRED",
  "STEP_UP_REQUIRED",
  "STEP_UP_METHOD",
  "TOTP_ENROLLED",
  "TOTP_NOT_STARTED",
  "SECOND_FACTOR_REQUIRED",
  "OWN_ACCOUNT",
  "NO_SECOND_FACTOR",
  // Passkeys: an answer the server did not accept, an authenticator already registered.
  "PASSKEY_FAILED",
  "PASSKEY_EXISTS",
  // Look-up by reference: nothing the caller may open has it, or it is not a reference.
  "REFERENCE_NOT_FOUND",
  "REFERENCE_INVALID",
  // The tamper-evident chains: an export's period, a verification already walking.
  "EXPORT_PERIOD_TOO_LONG",
  "EXPORT_PERIOD_FUTURE",
  "VERIFICATION_RUNNING",
  // Saved views (docs/saved-views.md): too big, not what the list can keep, a name in use, not one's own, too many.
  "SAVED_VIEW_TOO_LARGE",
  "SAVED_VIEW_INVALID",
  "SAVED_VIEW_NAME_TAKEN",
  "SAVED_VIEW_NOT_OWNER",
  "SAVED_VIEW_LIMIT",
  // Record versions (docs/versions.md): a stale, malformed or other record's If-Match.
  "VERSION_CONFLICT",
  "IF_MATCH_INVALID",
  "IF_MATCH_OTHER_RECORD",
];

describe("errors texts", () => {
  const en = keysOf(enErrors);

  it("has the same keys in both languages", () => {
    expect(keysOf(cnErrors).sort()).toEqual([...en].sort());
  });

  it("has a text for every stable error code", () => {
    expect(en.filter((k) => k.startsWith("codes.")).sort()).toEqual(
      STABLE_CODES.map((c) => `codes.${c}`).sort(),
    );
  });

  it("has a text for every key the catalogue uses", () => {
    const used = [...Object.values(SERVER_MESSAGE_CATALOGUE), ...Object.values(KIND_CATALOGUE)]
      .flatMap((entry) => [entry.key, entry.titleKey])
      .filter((key): key is string => key !== undefined)
      .map((key) => key.replace(/^errors:/, ""));
    expect(used.filter((key) => !en.includes(key))).toEqual([]);
  });

  it("keeps the product's own wording, typos included", () => {
    expect(enErrors.session.loginExpired).toBe("Login Expired, Please Relogin");
    expect(enErrors.session.userNotFound).toBe("User not exits, Please re-login");
    expect(enErrors.unexpected).toBe(
      "Unexpected error occured when calling api. Please contact admin.",
    );
    expect(enErrors.listFetchFailed).toBe(
      "Something went wrong while retriving data, please contact our technical support",
    );
    expect(enErrors.fetchFailed).toBe("Fail to fetch data");
    expect(enErrors.bannedDialog.title).toBe("Account banned from login");
  });
});
