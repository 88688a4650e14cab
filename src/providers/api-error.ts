/**
 * Every failure of an API call becomes one ApiError, sorted by what the server answered
 * (docs/errors.md, "How the console sorts a failure"), so no caller ever inspects a raw fetch
 * failure.
 * - coded: a contract error body with a stable `code` (VALIDATION_ERROR, NOT_FOUND, …)
 * - message: an error body with a `message` and no code (token and permission errors)
 * - unauthorized: the body is the bare text `Unauthorized`
 * - text: any other plain-text body
 * - status: a status and no body
 * - malformed: a body nobody can read (an HTML error page, truncated or invalid JSON)
 * - network: no answer at all (network down, timeout)
 * - cancelled: the console itself abandoned the request
 * - client: the console refused to send the request (e.g. an unsupported filter)
 */
export type ApiErrorKind =
  | "coded"
  | "message"
  | "unauthorized"
  | "text"
  | "status"
  | "malformed"
  | "network"
  | "cancelled"
  | "client";

/** The product's own fallback wording (typo kept, docs/errors.md). */
export const UNEXPECTED_ERROR_MESSAGE =
  "Unexpected error occured when calling api. Please contact admin.";
/** docs/errors.md: a status without a body reads `404 Not found` whatever the status. */
export const STATUS_ONLY_MESSAGE = "404 Not found";
export const UNAUTHORIZED_TEXT = "Unauthorized";

export interface ApiErrorInit {
  kind: ApiErrorKind;
  message: string;
  statusCode?: number;
  code?: string;
  data?: unknown;
  /** The request's HTTP method, lower case: a failed `get` is a failed data retrieval. */
  method?: string;
  /** What the failed retrieval was for (a list's title), put before the list-failure text. */
  prefix?: string;
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly statusCode?: number;
  readonly code?: string;
  readonly data?: unknown;
  readonly method?: string;
  readonly prefix?: string;
  /**
   * Field errors in Refine's `HttpError.errors` shape, so Refine forms mark the fields a
   * VALIDATION_ERROR names (`data.issues[].path`).
   */
  readonly errors?: Record<string, string[]>;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = "ApiError";
    this.kind = init.kind;
    this.statusCode = init.statusCode;
    this.code = init.code;
    this.data = init.data;
    this.method = init.method;
    this.prefix = init.prefix;
    this.errors = fieldErrors(init.data);
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fieldErrors(data: unknown): Record<string, string[]> | undefined {
  if (!isRecord(data) || !Array.isArray(data.issues)) return undefined;
  const errors: Record<string, string[]> = {};
  for (const issue of data.issues) {
    if (!isRecord(issue) || typeof issue.message !== "string") continue;
    const path = Array.isArray(issue.path) ? issue.path.join(".") : issue.path;
    if (typeof path !== "string" || path === "") continue;
    (errors[path] ??= []).push(issue.message);
  }
  return Object.keys(errors).length > 0 ? errors : undefined;
}

/**
 * A body that is meant for machines but cannot be read: an HTML page, or JSON that failed to
 * parse (the http client then hands over the raw text, which still starts like an object or
 * array). A JSON string literal that did parse arrives decoded and counts as ordinary text.
 */
function isUnreadableText(text: string, contentType: string): boolean {
  if (/html/i.test(contentType)) return true;
  return /^(<|\{|\[)/.test(text);
}

/**
 * Sorts one HTTP answer with an error status (or an unreadable success body) into an ApiError.
 * The http client leaves a body it could not parse as JSON as a string, which is how truncated
 * JSON shows up.
 */
export function apiErrorFromResponse(
  statusCode: number,
  body: unknown,
  contentType = "",
  method?: string,
): ApiError {
  const sorted = sortResponse(statusCode, body, contentType);
  return method === undefined ? sorted : new ApiError({ ...initOf(sorted), method });
}

/** The init an ApiError was made from, to copy it with one field changed. */
export function initOf(error: ApiError): ApiErrorInit {
  const { kind, message, statusCode, code, data, method, prefix } = error;
  return { kind, message, statusCode, code, data, method, prefix };
}

function sortResponse(statusCode: number, body: unknown, contentType: string): ApiError {
  if (isRecord(body)) {
    const message = typeof body.message === "string" ? body.message : undefined;
    if (typeof body.code === "string" && body.code !== "") {
      return new ApiError({
        kind: "coded",
        statusCode,
        code: body.code,
        message: message ?? body.code,
        data: body.data,
      });
    }
    if (message !== undefined) {
      return new ApiError({ kind: "message", statusCode, message, data: body.data });
    }
    return new ApiError({ kind: "status", statusCode, message: STATUS_ONLY_MESSAGE, data: body });
  }
  if (typeof body === "string" && body.trim() !== "") {
    const text = body.trim();
    if (text === UNAUTHORIZED_TEXT) {
      return new ApiError({ kind: "unauthorized", statusCode, message: UNAUTHORIZED_TEXT });
    }
    if (isUnreadableText(text, contentType)) {
      // Keep a short excerpt for debugging; the page itself is never shown to staff.
      const excerpt = text.slice(0, 500);
      return new ApiError({
        kind: "malformed",
        statusCode,
        message: UNEXPECTED_ERROR_MESSAGE,
        data: excerpt,
      });
    }
    return new ApiError({ kind: "text", statusCode, message: text });
  }
  return new ApiError({ kind: "status", statusCode, message: STATUS_ONLY_MESSAGE });
}

/**
 * A request that got no answer: the console itself abandoned it (`cancelled`), or nothing came
 * back (`network`: network down, DNS failure, CORS refusal or the 30-minute timeout).
 */
export function apiErrorWithoutAnswer(kind: "cancelled" | "network", method?: string): ApiError {
  if (kind === "cancelled") return new ApiError({ kind, message: "Request cancelled" });
  return new ApiError({ kind, message: UNEXPECTED_ERROR_MESSAGE, method });
}

/**
 * Any thrown value as an ApiError: failures that did not come through the http client (a refused
 * filter, a bug) become `client` errors rather than something untyped.
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof Error) return new ApiError({ kind: "client", message: error.message });
  if (typeof error === "string" && error !== "") {
    return new ApiError({ kind: "client", message: error });
  }
  return new ApiError({ kind: "client", message: UNEXPECTED_ERROR_MESSAGE });
}
