import type { PgTable } from "drizzle-orm/pg-core";
import type { SQL } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";

import type { RouteAccess } from "../auth/access";
import { errorResponses } from "../schemas/common";
import { AGGREGATION_LIMITS, runAggregation, type AnyPgDatabase } from "./index";
import { aggregationPreValidation, aggregationQuerystring } from "./query-params";
import type { CollectionSpec } from "./types";

/**
 * The response of an aggregation list: `{ totalCount, <queryName>: item[], totalCountExact }`
 * (api.md allows fields to follow). One definition, so the OpenAPI document and the browser's
 * types agree for every collection.
 */
export function aggregationListSchema<Name extends string, Item extends z.ZodType>(
  queryName: Name,
  item: Item,
) {
  return z
    .object({ totalCount: z.number().int() })
    .extend({ [queryName]: z.array(item) } as { [K in Name]: z.ZodArray<Item> })
    .extend({
      totalCountExact: z.boolean().meta({
        description:
          `false when more rows match than are counted (${AGGREGATION_LIMITS.exactCountLimit}): ` +
          "totalCount is then that lower bound, and later pages can still be requested",
      }),
    });
}

export interface AggregationRoute<Row, Item extends z.ZodType> {
  /** e.g. `/api/users/aggregation`. */
  path: string;
  access: RouteAccess;
  collection: CollectionSpec;
  table: PgTable;
  /** The published shape of one item, and how a row becomes it. */
  item: Item;
  toItem: (row: Row) => z.output<Item>;
  /** Rows the list is restricted to whatever the client asks (e.g. only pending users). */
  baseWhere?: SQL;
  tags: string[];
  summary: string;
}

/**
 * Registers `GET <path>` serving the aggregation contract for one collection: the collection
 * declares its fields, this does the rest (query parameters, 400 INVALID_QUERY, response shape).
 */
export function registerAggregationRoute<Row, Item extends z.ZodType>(
  app: FastifyInstance,
  db: AnyPgDatabase,
  route: AggregationRoute<Row, Item>,
): void {
  const { collection } = route;
  const listSchema = aggregationListSchema(collection.queryName, route.item);
  app.withTypeProvider<ZodTypeProvider>().get(
    route.path,
    {
      config: { access: route.access },
      preValidation: aggregationPreValidation,
      schema: {
        tags: route.tags,
        summary: route.summary,
        querystring: aggregationQuerystring,
        response: {
          200: listSchema,
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request) => {
      const { rows, ...total } = await runAggregation<Row>(
        db,
        collection,
        route.table,
        request.query,
        { baseWhere: route.baseWhere },
      );
      // A computed key widens to `string` for TypeScript; the serializer checks it against listSchema.
      const body = { ...total, [collection.queryName]: rows.map(route.toItem) };
      return body as unknown as z.output<typeof listSchema>;
    },
  );
}
