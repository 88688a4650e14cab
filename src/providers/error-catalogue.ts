import type { ApiError, ApiErrorKind } from "./api-error";

/**
 * The error catalogue (docs/errors.md): the one table saying, for every failure, which text staff
 * see and what the console does. The handler, the login form and translateApiError all read it.
 *
 * - clearTokenAndReload: the session is dead; remove the token, tell the user, reload (to login)
 * - showData: the server already wrote the text to show in `data` (Wrong password)
 * - bannedDialog: the `Account banned from login` (or `Account disabled`) dialog with the contact
 *   e-mail
 * - toast: an error toast, session untouched
 * - silent: nothing by this layer (coded errors are shown by the form that caused them)
 */
export type ErrorEffect = "clearTokenAndReload" | "showData" | "bannedDialog" | "toast" | "silent";

export interface CatalogueEntry {
  effect: ErrorEffect;
  /** The text staff read (`errors:` namespace). Absent: the server's own text is shown. */
  key?: string;
  /** A headline above that text, for rows that show two (a toast's title, a dialog's title). */
  titleKey?: string;
  /** Toasts sharing a notice key replace each other: set where many failures make one message. */
  noticeKey?: string;
}

/** docs/errors.md: the page reloads 500 ms after the token is cleared, long enough to read why. */
export const RELOAD_DELAY_MS = 500;

const sessionEnded = (key: string, titleKey?: string): CatalogueEntry => ({
  effect: "clearTokenAndReload",
  key,
  titleKey,
});

/** "Central handler driven by the server message": matched on the exact server message. */
export const SERVER_MESSAGE_CATALOGUE: Readonly<Record<string, CatalogueEntry>> = {
  "JWT expired": sessionEnded("errors:session.loginExpired"),
  "User not authorise": sessionEnded("errors:session.loginExpired"),
  "Wrong password": { effect: "showData", key: "errors:login.wrongPassword" },
  Unauthorized: sessionEnded("errors:session.unauthorizedRelogin", "errors:session.unauthorized"),
  "Missing credential key": sessionEnded("errors:session.loginExpiredRelogin"),
  "User not found": sessionEnded("errors:session.userNotFound"),
  "User banned from login": sessionEnded("errors:session.userBanned"),
  "Invalid credential key": sessionEnded("errors:session.invalidCredential"),
  "User is banned from login.": {
    effect: "bannedDialog",
    key: "errors:bannedDialog.content",
    titleKey: "errors:bannedDialog.title",
  },
  "User is disabled.": {
    effect: "bannedDialog",
    key: "errors:disabledDialog.content",
    titleKey: "errors:disabledDialog.title",
  },
};

/** `You have no permission to access <METHOD> <Thing>` (docs/api.md): a refusal, never a logout. */
export const PERMISSION_DENIED_PREFIX = "You have no permission to access ";

/**
 * Refusals nobody needs to hear about: pages read a single user opportunistically and cope
 * without it, so a toast would only alarm (docs/errors.md, "How the console sorts a failure").
 */
export const SUPPRESSED_MESSAGES: ReadonlySet<string> = new Set([
  "You have no permission to access GET Single User",
]);

/** "Response handling in the data layer": the row for failures no message above names. */
export const KIND_CATALOGUE: Readonly<Record<ApiErrorKind, CatalogueEntry>> = {
  coded: { effect: "silent" },
  message: { effect: "toast" },
  unauthorized: sessionEnded("errors:session.unauthorizedRelogin", "errors:session.unauthorized"),
  text: { effect: "toast" },
  status: { effect: "toast", key: "errors:statusOnly" },
  malformed: { effect: "toast", key: "errors:unexpected" },
  network: { effect: "toast", key: "errors:unexpected", titleKey: "errors:fetchFailed" },
  cancelled: { effect: "silent", key: "errors:cancelled" },
  client: { effect: "toast" },
};

/**
 * "A list fetch fails": one toast, however many retrievals fail together (hence one notice key
 * for every list, prefixed or not). It stands in for the rows that have nothing to tell staff
 * about a failed read: a coded error, a bare status, an unreadable body. Session rows, the
 * dialog, a server message or text, no response and the suppressed message keep their own row.
 */
export const LIST_FETCH_FAILED: CatalogueEntry = {
  effect: "toast",
  key: "errors:listFetchFailed",
  noticeKey: "list-fetch-failed",
};
const LIST_FETCH_FAILED_WITH_PREFIX = "errors:listFetchFailedWithPrefix";
const LIST_ROW_REPLACES: ReadonlySet<ApiErrorKind> = new Set(["coded", "status", "malformed"]);

function isFailedRetrieval(error: ApiError): boolean {
  return error.method === "get" && LIST_ROW_REPLACES.has(error.kind);
}

/** One failure looked up in the catalogue, with what its texts need filled in. */
export interface ResolvedApiError extends CatalogueEntry {
  /** Interpolation values for `key` (the permission target, the contact e-mail). */
  values?: Record<string, string>;
  /** The server's own text: shown when there is no key, and the fallback for a missing key. */
  text: string;
}

function bannedEmail(data: unknown): string {
  if (typeof data === "object" && data !== null && "email" in data) {
    const email = (data as { email: unknown }).email;
    if (typeof email === "string") return email;
  }
  return "";
}

/**
 * What the central handler shows for a failure: its row, or the list-failure row for a failed
 * read. Views explaining a failure in place use resolveApiError, which keeps the specific text.
 */
export function resolveHandledError(error: ApiError): ResolvedApiError {
  if (!isFailedRetrieval(error)) return resolveApiError(error);
  const text = error.message;
  if (!error.prefix) return { ...LIST_FETCH_FAILED, text };
  return {
    ...LIST_FETCH_FAILED,
    key: LIST_FETCH_FAILED_WITH_PREFIX,
    values: { prefix: error.prefix },
    text,
  };
}

/** How long a refusal asks to wait (`data.retryAfterSeconds`), in minutes, for its words. */
function waitValues(data: unknown): Record<string, string> | undefined {
  const seconds = (data as { retryAfterSeconds?: unknown } | null)?.retryAfterSeconds;
  if (typeof seconds !== "number" || !Number.isFinite(seconds)) return undefined;
  return { minutes: String(Math.max(1, Math.ceil(seconds / 60))) };
}

/** The row of a failure by what the server answered (both tables, without the list row). */
export function resolveApiError(error: ApiError): ResolvedApiError {
  const text = error.message;
  if (error.kind === "coded") {
    // Codes are stable; their wording lives in the locale files, the message is the fallback.
    return {
      ...KIND_CATALOGUE.coded,
      key: `errors:codes.${error.code ?? ""}`,
      values: waitValues(error.data),
      text,
    };
  }
  const byMessage =
    error.kind === "message" || error.kind === "text" || error.kind === "unauthorized"
      ? SERVER_MESSAGE_CATALOGUE[text]
      : undefined;
  if (byMessage?.effect === "showData") {
    // The server localised the text already (Accept-Language); use it when it sent one.
    const data = typeof error.data === "string" && error.data !== "" ? error.data : undefined;
    return data ? { effect: "showData", text: data } : { ...byMessage, text };
  }
  if (byMessage?.effect === "bannedDialog") {
    const email = bannedEmail(error.data);
    const key = email ? byMessage.key : `${byMessage.key}NoEmail`;
    return { ...byMessage, key, values: { email }, text };
  }
  if (byMessage) return { ...byMessage, text };
  if (error.kind === "message" && text.startsWith(PERMISSION_DENIED_PREFIX)) {
    const target = text.slice(PERMISSION_DENIED_PREFIX.length);
    const effect = SUPPRESSED_MESSAGES.has(text) ? "silent" : "toast";
    return { effect, key: "errors:permissionDenied", values: { target }, text };
  }
  return { ...KIND_CATALOGUE[error.kind], text };
}
