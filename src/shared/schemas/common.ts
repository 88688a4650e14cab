import { z } from "zod";

import {
  decimalIntegerText,
  documentedTextPattern,
  safeText,
  SINGLE_LINE_FORBIDDEN,
} from "../text";

/** Every error body of the API: `{ code?, message, data? }` (docs/api.md, "Errors"). */
export const errorBodySchema = z
  .object({
    code: z.string().optional().describe("Stable error code, e.g. VALIDATION_ERROR"),
    message: z.string(),
    data: z.unknown().optional(),
  })
  .meta({ id: "ErrorBody" });

export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Error responses a route may give, for the OpenAPI document and the serializer. */
export function errorResponses(...statuses: Array<400 | 401 | 403 | 404 | 409 | 410 | 429>) {
  return Object.fromEntries(statuses.map((status) => [status, errorBodySchema])) as Record<
    number,
    typeof errorBodySchema
  >;
}

/** Ids are PostgreSQL `integer`s: a larger one is refused (400) before it reaches the database. */
export const ID_MAX = 2_147_483_647;
export const idSchema = z.number().int().positive().max(ID_MAX);

export const idParamsSchema = z.strictObject({
  id: decimalIntegerText(1, ID_MAX),
});

export { isoDate, isoDateTime } from "../kit/types";

/** A trimmed, non-empty name. */
export const nameSchema = safeText().trim().min(1).max(100);

/** The address rule of `z.email()`, which the document states with the blanks a trim removes. */
const EMAIL_PATTERN = z.email()._zod.def.pattern ?? /^$/;

/**
 * An e-mail address as typed (case kept); compared case-insensitively. The document states the
 * address rule too (it is checked after the trim, so blanks around it are allowed).
 */
export const emailSchema = safeText()
  .trim()
  .max(254)
  .pipe(z.email())
  .meta({
    format: "email",
    allOf: [
      { pattern: documentedTextPattern(SINGLE_LINE_FORBIDDEN, true, false) },
      { pattern: `^\\s*(?:${EMAIL_PATTERN.source.replace(/^\^|\$$/g, "")})\\s*$` },
    ],
  });

export const accountNumberSchema = safeText(
  {},
  { error: (issue) => (issue.input === undefined ? "Required" : "Expected text") },
)
  .trim()
  .min(1, "Required")
  .max(32)
  .describe("The user's account number");
