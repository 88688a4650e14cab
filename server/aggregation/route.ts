import type { PgTable } from "drizzle-orm/pg-core";
import type { SQL } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { z } from "zod";

import type { RouteAccess } from "../auth/access";
import { errorResponses } from "../schemas/common";
import { aggregationListSchema } from "../../src/shared/kit/list";
import { runAggregation, type AnyPgDatabase } from "./index";
import { aggregationPreValidation, aggregationQuerystring } from "./query-params";
import type { CollectionSpec } from "./types";

export { aggregationListSchema };

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
