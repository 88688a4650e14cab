import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from "fastify-type-provider-zod";

import { HttpError } from "../errors";
import type { ErrorBody } from "../../src/shared/schemas/common";

export interface ValidationIssue {
  path: string;
  message: string;
}

/** `/permissions/0` → `permissions.0`; unknown keys become issues of their own, named by key. */
function issuesOf(
  validation: ReadonlyArray<{
    instancePath: string;
    message?: string;
    keyword: string;
    params: unknown;
  }>,
): ValidationIssue[] {
  return validation.flatMap((issue) => {
    const path = issue.instancePath.split("/").filter(Boolean).join(".");
    const keys = (issue.params as { keys?: unknown }).keys;
    if (issue.keyword === "unrecognized_keys" && Array.isArray(keys)) {
      return keys.map((key) => ({
        path: path ? `${path}.${String(key)}` : String(key),
        message: "Unknown field",
      }));
    }
    return [{ path, message: issue.message ?? "Invalid value" }];
  });
}

const CONTEXT_NAMES: Record<string, string> = {
  body: "body",
  querystring: "query",
  params: "path parameter",
  headers: "header",
};

function validationError(
  validation: Parameters<typeof issuesOf>[0],
  context: string | undefined,
): HttpError {
  const issues = issuesOf(validation);
  const first = issues[0] ?? { path: "", message: "Invalid value" };
  const subject = first.path || CONTEXT_NAMES[context ?? "body"] || "request";
  return new HttpError(400, `Invalid ${subject}: ${first.message}`, "VALIDATION_ERROR", { issues });
}

/** SQLSTATE query_canceled: PostgreSQL's statement_timeout stopped the query. */
const STATEMENT_TIMEOUT = "57014";

/** The SQLSTATE of a database error, as pg raises it or as Drizzle wraps it (its `cause`). */
function sqlStateOf(error: unknown): unknown {
  const { code, cause } = error as { code?: unknown; cause?: { code?: unknown } };
  return cause?.code ?? code;
}

/**
 * Whether `error` says the database cannot be reached (stopped, restarting, the connection
 * dropped or never made) rather than that a statement failed:
 * - PostgreSQL's connection exceptions (SQLSTATE class 08), its shutdown and start-up refusals
 *   (57P01–57P03) and too many connections (53300);
 * - what pg says when a connection ends under a query or none comes in time;
 * - a socket's error while connecting (`syscall: "connect"`: refused, or no Unix socket file while
 *   PostgreSQL is down), or on a query's connection (a Drizzle query error's cause).
 * A socket error of anything else (a file, a mail server) is not the database's.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let query = false;
  for (
    let e = error as ErrorLink | undefined, depth = 0;
    e && depth < 4;
    e = e.cause as ErrorLink | undefined, depth++
  ) {
    const code = typeof e.code === "string" ? e.code : "";
    if (/^08/.test(code) || UNAVAILABLE_STATES.has(code)) return true;
    const message = typeof e.message === "string" ? e.message : "";
    if (UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
    if (SOCKET_CODES.has(code) && (e.syscall === "connect" || query)) return true;
    query ||= typeof e.query === "string";
  }
  return false;
}

interface ErrorLink {
  code?: unknown;
  message?: unknown;
  syscall?: unknown;
  /** A Drizzle query error's statement: its cause is the driver's error. */
  query?: unknown;
  cause?: unknown;
}

const UNAVAILABLE_STATES = new Set(["57P01", "57P02", "57P03", "53300"]);
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOENT",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Client has encountered a connection error/,
  /^Cannot use a pool after calling end/,
];

/** How soon a client is told to try again when the database is away. */
const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * The app's one error handler: everything leaves as `{ code?, message, data? }`. Validation
 * failures name the field, HttpErrors pass through, Fastify's own 4xx errors keep their status and
 * message, a query PostgreSQL stopped for its time is a 503 QUERY_TIMEOUT, a database that cannot
 * be reached a 503 DATABASE_UNAVAILABLE (with Retry-After), and anything else is a
 * 500 INTERNAL_ERROR that reveals nothing about the internals.
 */
export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  let httpError: HttpError;
  if (error instanceof HttpError) {
    httpError = error;
  } else if (hasZodFastifySchemaValidationErrors(error)) {
    httpError = validationError(error.validation, error.validationContext);
  } else if (
    !isResponseSerializationError(error) &&
    typeof error.statusCode === "number" &&
    error.statusCode >= 400 &&
    error.statusCode < 500
  ) {
    // Fastify's own client errors: malformed JSON, body too large, unsupported media type, ….
    httpError = new HttpError(error.statusCode, error.message);
  } else if (sqlStateOf(error) === STATEMENT_TIMEOUT) {
    request.log.warn({ err: error }, "statement timeout");
    httpError = new HttpError(
      503,
      "The request took too long and was stopped; narrow it and try again",
      "QUERY_TIMEOUT",
    );
  } else if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, "database unavailable");
    reply.header("Retry-After", String(DATABASE_RETRY_AFTER_SECONDS));
    httpError = new HttpError(
      503,
      "The database cannot be reached; try again in a moment",
      "DATABASE_UNAVAILABLE",
    );
  } else {
    request.log.error({ err: error }, "request failed");
    httpError = new HttpError(500, "Internal server error", "INTERNAL_ERROR");
  }

  if (httpError.statusCode >= 500 && error instanceof HttpError) {
    request.log.error({ err: error }, "request failed");
  }
  const body: ErrorBody = { message: httpError.message };
  if (httpError.code !== undefined) body.code = httpError.code;
  if (httpError.data !== undefined) body.data = httpError.data;
  return reply.status(httpError.statusCode).send(body);
}
