import { z } from "zod";

import { safeText } from "../text";

/**
 * A `record` filter's choices (`GET /api/{collection}/options/{field}`): the records staff pick
 * by name, `{value: id, label: name}`. Asked by a part of the name, or by the ids a filter already
 * holds (to show their names).
 */
export const optionsQuerySchema = z.strictObject({
  search: safeText().trim().max(100, "search must be at most 100 characters").optional(),
  ids: z
    .string()
    .regex(/^\d{1,9}(,\d{1,9}){0,49}$/, "ids must be up to 50 ids separated by commas")
    .optional(),
});
// No component id: @fastify/swagger spreads a querystring into parameters, which a $ref breaks.
export type OptionsQuery = z.output<typeof optionsQuerySchema>;

export const optionsListSchema = z
  .object({ options: z.array(z.object({ value: z.number().int(), label: z.string() })) })
  .meta({ id: "OptionsList" });
export type OptionsList = z.infer<typeof optionsListSchema>;
