import type { FastifySchemaCompiler } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import type { z } from "zod";

import { HttpError } from "../errors";

/**
 * `attachment` with the original name: an ASCII fallback for old clients and the exact name
 * (RFC 5987) for the rest. Attachment, not inline: the files come from outside.
 */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const exact = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

/** The form's field errors in the API's shape: 400 VALIDATION_ERROR naming the first field. */
export function formFieldsError(error: z.ZodError): HttpError {
  const issues = error.issues.flatMap((issue) =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({ path: key, message: "Unknown field" }))
      : [{ path: issue.path.join("."), message: issue.message }],
  );
  const first = issues[0] ?? { path: "form", message: "Invalid value" };
  return new HttpError(
    400,
    `Invalid ${first.path || "form"}: ${first.message}`,
    "VALIDATION_ERROR",
    {
      issues,
    },
  );
}

/**
 * For a multipart form its handler reads as a stream (files are checked as they arrive): the
 * body schema documents the form in OpenAPI but is not run against `request.body`; querystring
 * and the rest still go through the zod compiler.
 */
export const streamedBodyCompiler: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === "body"
    ? (value) => ({ value })
    : validatorCompiler(route as Parameters<typeof validatorCompiler>[0]);
