/** The choices of a `record` filter: `GET /api/<collection>/options/<field>`. */
import { inArray, sql } from "drizzle-orm";

import {
  optionsListSchema,
  optionsQuerySchema,
  type OptionsQuery,
} from "../../../src/shared/kit/options";
import { errorResponses } from "../../../src/shared/schemas/common";
import { escapeLike } from "../../aggregation/filter";
import type { Db } from "../../db";
import type { OptionsBinding } from "../bind";
import type { ModuleRoute, RouteContext } from "./route";

/** How many choices a `record` filter's options route answers at most. */
export const OPTIONS_LIMIT = 20;

export function registerOptions(
  { api, db, bound, tags }: RouteContext,
  route: Extract<ModuleRoute, { kind: "options" }>,
): void {
  const options = bound.binding.options![route.name]!;
  api.get(
    route.url,
    {
      config: { access: route.access },
      schema: {
        tags,
        summary: `Choices of the ${route.name} filter of ${bound.module.thing.many}`,
        description:
          `Up to ${OPTIONS_LIMIT} by name: those whose name contains \`search\`, or those ` +
          "with the ids in `ids` (comma-separated), to name a filter already chosen.",
        querystring: optionsQuerySchema,
        response: { 200: optionsListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({ options: await listOptions(db, options, request.query) }),
  );
}

/** A record filter's choices: by name, or the ones with the given ids; by name, at most 20. */
async function listOptions(db: Db, options: OptionsBinding, query: OptionsQuery) {
  const where =
    query.ids !== undefined
      ? inArray(options.value, query.ids.split(",").map(Number))
      : query.search
        ? sql`${options.label} ilike ${`%${escapeLike(query.search)}%`}`
        : undefined;
  return db
    .select({ value: options.value, label: options.label })
    .from(options.table)
    .where(where)
    .orderBy(options.label, options.value)
    .limit(OPTIONS_LIMIT) as Promise<Array<{ value: number; label: string }>>;
}
