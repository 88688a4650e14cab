import { and, count, type SQL } from "drizzle-orm";
import type { PgDatabase, PgTable } from "drizzle-orm/pg-core";
import { compileFilter } from "./filter";
import { compilePagination } from "./pagination";
import { compileSort } from "./sort";
import type { CollectionSpec, RawAggregationQuery } from "./types";

export type { CollectionSpec, FieldSpec, RawAggregationQuery } from "./types";
export { AGGREGATION_LIMITS } from "./types";
export {
  aggregationPreValidation,
  aggregationQuerystring,
  assertKnownAggregationParams,
  type AggregationQuerystring,
} from "./query-params";

export interface CompiledAggregation {
  where: SQL | undefined;
  orderBy: SQL[];
  limit: number;
  offset: number;
  page: number;
  pageSize: number;
}

/** Any drizzle PostgreSQL database or transaction (node-postgres, PGlite, …). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyPgDatabase = PgDatabase<any, any, any>;

/** An empty or blank parameter counts as omitted. */
const given = (text: string | undefined) => (text?.trim() ? text : undefined);

/**
 * Turns the api.md "Aggregation lists" parameters into parameterised SQL against the collection's
 * allow-list; throws InvalidQueryError (400 INVALID_QUERY) for anything it does not accept.
 *
 * Dates: `YYYY-MM-DD` is a whole UTC calendar day — equality means within that day, `$gt` after
 * it, `$gte` from its start, `$lt` before it, `$lte` up to its end; an ISO-8601 date-time is an
 * instant (read as UTC without an offset). `$ne`/`$nin` also match NULLs (SQL's `<>` would not).
 * `$contains`/`$startsWith`/`$search` are case-insensitive (ILIKE, wildcards escaped).
 */
export function compileAggregation(
  spec: CollectionSpec,
  raw: RawAggregationQuery,
): CompiledAggregation {
  const filter = given(raw.filter);
  const where = filter === undefined ? undefined : compileFilter(spec, filter);
  const orderBy = compileSort(spec, given(raw.sort));
  return { where, orderBy, ...compilePagination(given(raw.pagination)) };
}

/**
 * Runs one aggregation page: the rows (as drizzle selects them: the table's camelCase keys) and
 * the total count under the same condition. `baseWhere` (e.g. a scope the route imposes) is ANDed.
 */
export async function runAggregation<T>(
  db: AnyPgDatabase,
  spec: CollectionSpec,
  table: PgTable,
  raw: RawAggregationQuery,
  options?: { baseWhere?: SQL },
): Promise<{ totalCount: number; rows: T[] }> {
  const query = compileAggregation(spec, raw);
  const where = and(options?.baseWhere, query.where);
  const [rows, totalCount] = await Promise.all([
    db
      .select()
      .from(table)
      .where(where)
      .orderBy(...query.orderBy)
      .limit(query.limit)
      .offset(query.offset),
    countRows(db, table, where),
  ]);
  return { totalCount, rows: rows as T[] };
}

/** The one place that counts; at a million rows it may become an estimate or a cached count. */
async function countRows(db: AnyPgDatabase, table: PgTable, where: SQL | undefined) {
  const [result] = await db.select({ value: count() }).from(table).where(where);
  return result?.value ?? 0;
}
