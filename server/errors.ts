/**
 * The one error type routes throw. The app's error handler turns it into the contract's body
 * `{ code?, message, data? }` with `statusCode`.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code?: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

/** 400 for a malformed or disallowed aggregation parameter; the message names the parameter. */
export class InvalidQueryError extends HttpError {
  constructor(
    readonly parameter: string,
    reason: string,
  ) {
    super(400, `Invalid ${parameter}: ${reason}`, "INVALID_QUERY");
    this.name = "InvalidQueryError";
  }
}

export const notFound = (thing: string) => new HttpError(404, `${thing} not found`, "NOT_FOUND");
export const conflict = (code: string, message: string, data?: unknown) =>
  new HttpError(409, message, code, data);
export const forbidden = (code: string, message: string) => new HttpError(403, message, code);
/** Record versions (docs/versions.md): a stale If-Match, with the record as it is now. */
export const versionConflict = (message: string, data: unknown) =>
  new HttpError(409, message, "VERSION_CONFLICT", data);
/** Record versions: an If-Match that is not one ETag of the kit's shape, or another record's. */
export const ifMatchRefused = (
  code: "IF_MATCH_INVALID" | "IF_MATCH_OTHER_RECORD",
  message: string,
  data?: unknown,
) => new HttpError(400, message, code, data);

/** Whether a database error (or the error it caused) is a unique constraint's (23505). */
export function isUniqueViolation(error: unknown): boolean {
  const cause = (error as { cause?: unknown }).cause ?? error;
  return (cause as { code?: unknown }).code === "23505";
}
