import { z } from "zod";
import { DATE_YEARS } from "../../src/shared/kit/types";
import { InvalidQueryError } from "../errors";

const AGGREGATION_PARAMETERS = ["filter", "sort", "pagination"] as const;

/**
 * The querystring schema of every `GET /api/{collection}/aggregation` route (for
 * fastify-type-provider-zod; it also documents the parameters in OpenAPI).
 *
 * Being strict, zod rejects unknown parameters, but through the validator that becomes a
 * VALIDATION_ERROR, whereas the contract wants 400 INVALID_QUERY naming the parameter. So every
 * aggregation route must ALSO register the pre-validation hook, which runs first:
 *
 *   app.get("/api/users/aggregation", {
 *     schema: { querystring: aggregationQuerystring },
 *     preValidation: aggregationPreValidation,
 *   }, handler);
 */
export const aggregationQuerystring = z.strictObject({
  filter: z
    .string()
    .optional()
    .describe(
      'JSON object: {"field": value} (equals) or {"field": {"$ne"|"$in"|"$nin"|"$gt"|"$gte"|' +
        '"$lt"|"$lte"|"$contains"|"$startsWith"|"$null": value}}, {"$or": [filter, …]}, ' +
        '{"$search": "text"}. Dates are YYYY-MM-DD (a whole UTC day) or ISO-8601, in the years ' +
        `${DATE_YEARS.min} to ${DATE_YEARS.max}. A blank text value (empty or only spaces) is ` +
        'refused; a blank "$search" is no search.',
    ),
  sort: z
    .string()
    .optional()
    .describe('JSON object {"field": 1 | -1, …}; keys in priority order, 1 ascending.'),
  pagination: z
    .string()
    .optional()
    .describe('JSON object {"page": 1, "pageSize": 10}; page ≥ 1, 1 ≤ pageSize ≤ 100.'),
});

export type AggregationQuerystring = z.infer<typeof aggregationQuerystring>;

/**
 * Throws InvalidQueryError for an unknown query parameter (the error's parameter is its name) or
 * for a known one given more than once (Fastify then parses it to an array).
 */
export function assertKnownAggregationParams(query: unknown): void {
  if (query === undefined || query === null || typeof query !== "object") return;
  const unknown = Object.keys(query).filter(
    (key) => !(AGGREGATION_PARAMETERS as readonly string[]).includes(key),
  );
  if (unknown.length > 0) {
    throw new InvalidQueryError(
      unknown.join(", "),
      `unknown query parameter${unknown.length > 1 ? "s" : ""} (allowed: ${AGGREGATION_PARAMETERS.join(", ")})`,
    );
  }
  for (const key of AGGREGATION_PARAMETERS) {
    const value: unknown = (query as Record<string, unknown>)[key];
    if (value !== undefined && typeof value !== "string") {
      throw new InvalidQueryError(key, "must be given once, as a JSON-encoded string");
    }
  }
}

/** Fastify `preValidation` hook for aggregation routes; see `aggregationQuerystring`. */
export async function aggregationPreValidation(request: { query: unknown }): Promise<void> {
  assertKnownAggregationParams(request.query);
}
