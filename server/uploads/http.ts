import type { FastifyReply, FastifySchemaCompiler } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import type { z } from "zod";

import { withoutBidiControls } from "../../src/shared/text";
import { HttpError } from "../errors";

/**
 * `attachment` with the original name: an ASCII fallback for old clients and the exact name
 * (RFC 5987) for the rest. Attachment, not inline: the files come from outside. Never with a
 * bidirectional control (the text rule's spoof: "invoice" U+202E "fdp.exe" shows as
 * "invoiceexe.pdf"), whatever a name stored before uploads refused them holds.
 */
export function contentDisposition(fileName: string): string {
  const name = withoutBidiControls(fileName);
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const exact = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

/**
 * Sends a stored document: the type its content was detected as (never the client's), as an
 * attachment under its cleaned name, never cached, and `nosniff` so no browser second-guesses
 * the type.
 */
export function sendDocument(
  reply: FastifyReply,
  document: { contentType: string; fileName: string; content: Buffer },
) {
  return reply
    .type(document.contentType)
    .header("content-disposition", contentDisposition(document.fileName))
    .header("cache-control", "private, no-store")
    .header("x-content-type-options", "nosniff")
    .send(document.content);
}

/** What the parser may read of a form that takes one file: `files: 1`, so a second is seen. */
export const ONE_FILE_LIMIT = { files: 1 } as const;

/**
 * The one rule of an upload that takes one file (a body's image, the UCSI ID import): a second
 * file refuses the whole form, 400 TOO_MANY_FILES, rather than being dropped. The form is read
 * to its end with ONE_FILE_LIMIT, whose error the parser raises at the second file: given that
 * error this answers the refusal, given any other undefined.
 */
export function secondFileRefusal(error: unknown, field: string): HttpError | undefined {
  if ((error as { code?: string } | null)?.code !== "FST_FILES_LIMIT") return undefined;
  return new HttpError(
    400,
    `Send one file only: the "${field}" field takes one file per upload`,
    "TOO_MANY_FILES",
    { field },
  );
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
