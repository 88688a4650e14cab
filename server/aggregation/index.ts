import { and, Column, count, is, SQL, sql } from "drizzle-orm";
import {
  PgDialect,
  PgTable,
  type AnyPgColumn,
  type PgDatabase,
  type PgSelect,
} from "drizzle-orm/pg-core";
import type { DbOrTx } from "../db";
import { executePrepared, preparedQuery } from "../db/prepared";
import { compileFilter } from "./filter";
import { compilePagination } from "./pagination";
import { compileSort } from "./sort";
import { AGGREGATION_LIMITS, type CollectionSpec, type RawAggregationQuery } from "./types";

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
  /** A text search: usually a lookup of a few rows, where counting costs as much as the page. */
  searched: boolean;
  orderBy: SQL[];
  limit: number;
  offset: number;
  page: number;
  pageSize: number;
}

/** Any drizzle PostgreSQL database or transaction (node-postgres, PGlite, …). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyPgDatabase = PgDatabase<any, any, any>;

/**
 * Turns the "Aggregation lists" parameters (docs/api.md) into parameterised SQL against the collection's
 * allow-list; throws InvalidQueryError (400 INVALID_QUERY) for anything it does not accept.
 *
 * Dates: `YYYY-MM-DD` is a whole UTC calendar day — equality means within that day, `$gt` after
 * it, `$gte` from its start, `$lt` before it, `$lte` up to its end; an ISO-8601 date-time is an
 * instant (read as UTC without an offset). `$ne`/`$nin` also match NULLs (SQL's `<>` would not).
 * `$contains`/`$startsWith`/`$search` are case-insensitive (ILIKE, wildcards escaped). A blank
 * text value (json.ts, isBlank) is refused; a blank `$search` is no search. Dates are in
 * DATE_YEARS (src/shared/kit/types.ts), as everywhere in the API.
 */
export function compileAggregation(
  spec: CollectionSpec,
  raw: RawAggregationQuery,
): CompiledAggregation {
  // An empty or blank parameter is refused (400 INVALID_QUERY), never read as omitted.
  const { filter } = raw;
  const { where, searched } =
    filter === undefined ? { where: undefined, searched: false } : compileFilter(spec, filter);
  const orderBy = compileSort(spec, raw.sort);
  return { where, searched, orderBy, ...compilePagination(raw.pagination) };
}

/** A list's total: exact up to AGGREGATION_LIMITS.exactCountLimit, else that limit as a lower bound. */
export interface ListTotal {
  totalCount: number;
  totalCountExact: boolean;
}

/**
 * Counts that reached the limit, remembered per database and query for SATURATED_COUNT_MS: that
 * more than 1,000 rows match rarely stops holding within seconds, while counting it again costs a
 * search its second index search on every page a member of staff turns and every refetch (a
 * common name at a million users: 7 to 15 ms of the database's time, its page 0.4 ms). A count
 * below the limit is exact and always counted afresh.
 */
export const SATURATED_COUNT_MS = 30_000;
const SATURATED_COUNTS_KEPT = 500;
const saturatedCounts = new WeakMap<AnyPgDatabase, Map<string, number>>();

/**
 * Counts the rows `matching` selects (any select, joins included), stopping at one past
 * AGGREGATION_LIMITS.exactCountLimit: the cost is bounded by the limit, not by the table. A
 * count that reached the limit is not repeated for SATURATED_COUNT_MS.
 */
export async function countUpToLimit(db: AnyPgDatabase, matching: PgSelect): Promise<ListTotal> {
  const limit = AGGREGATION_LIMITS.exactCountLimit;
  const counting = db.select({ value: count() }).from(matching.limit(limit + 1).as("matching"));
  const { sql: text, params } = counting.toSQL();
  const key = JSON.stringify([text, params], (_, v: unknown) =>
    typeof v === "bigint" ? `${v}n` : v,
  );
  let known = saturatedCounts.get(db);
  if (!known) saturatedCounts.set(db, (known = new Map()));
  const until = known.get(key);
  if (until !== undefined) {
    if (until > Date.now()) return { totalCount: limit, totalCountExact: false };
    known.delete(key);
  }
  const [result] = await counting;
  const value = result?.value ?? 0;
  if (value <= limit) return { totalCount: value, totalCountExact: true };
  known.set(key, Date.now() + SATURATED_COUNT_MS);
  if (known.size > SATURATED_COUNTS_KEPT) known.delete(known.keys().next().value!);
  return { totalCount: limit, totalCountExact: false };
}

/**
 * One page and its total. A page that is not full (and not past the end) is the last one, so it
 * tells the exact total, beyond the count limit too. Usually the page and the count run side by
 * side; for a text search the page is read first and counted only when full, since a search is
 * mostly a lookup of a few rows whose count would cost a second index search.
 */
export async function pageWithTotal<R>(
  query: Pick<CompiledAggregation, "searched" | "offset" | "limit">,
  /** The page's rows, and how many the filter matched (its keys: a row may go before it is read). */
  readPage: () => Promise<{ rows: R[]; matched: number }>,
  countAll: () => Promise<ListTotal>,
): Promise<ListTotal & { rows: R[] }> {
  const counting = query.searched ? undefined : countAll();
  // Handled now, so that a page that fails first does not leave the count's failure unhandled.
  counting?.catch(() => undefined);
  const { rows, matched } = await readPage();
  const lastPage = matched < query.limit && (matched > 0 || query.offset === 0);
  const total: ListTotal = lastPage
    ? { totalCount: query.offset + matched, totalCountExact: true }
    : await (counting ?? countAll());
  await counting; // settled before answering, needed or not
  return { ...total, rows };
}

/** Inner joins of a list's source: the joined table and the join condition. */
export interface Join {
  table: PgTable;
  on: SQL;
  /**
   * Every row of the source's table has exactly one match (the condition follows a not-null
   * foreign key to the joined table's primary key): the join neither drops nor repeats rows, so
   * the count leaves it out unless the filter reads the joined table (at 10 million ledger rows,
   * counting 1,000 top-ups of a status and period: 3.8 ms with the owners' lookups, 0.8 without).
   */
  exactlyOne?: boolean;
}

/** Whether a condition reads `table`: one of its columns, or the table itself (a subquery). */
function reads(chunk: unknown, table: PgTable): boolean {
  if (chunk === table) return true;
  if (is(chunk, Column)) return chunk.table === table;
  if (is(chunk, SQL)) return chunk.queryChunks.some((part) => reads(part, table));
  if (is(chunk, SQL.Aliased)) return reads(chunk.sql, table);
  if (Array.isArray(chunk)) return chunk.some((part) => reads(part, table));
  return false;
}

/** What a list reads from: a table, optionally joined, and the columns it selects. */
export interface AggregationSource {
  table: PgTable;
  joins?: readonly Join[];
  /** The selected columns, keyed as rows come back; default: every column of `table`. */
  select?: Record<string, AnyPgColumn | SQL | SQL.Aliased>;
}

/**
 * Runs one aggregation page: the rows (as drizzle selects them: the table's camelCase keys, or
 * the source's selection) and the total (see countUpToLimit) under the same condition.
 * `baseWhere` (e.g. a scope the route imposes) is ANDed. The page's keys are found first and
 * their rows read after, in a second statement, so a deep page walks an index of keys
 * (index-only) instead of fetching every skipped row. The total: see pageWithTotal.
 */
export async function runAggregation<T>(
  db: AnyPgDatabase,
  spec: CollectionSpec,
  source: PgTable | AggregationSource,
  raw: RawAggregationQuery,
  options?: {
    baseWhere?: SQL;
    /** Sums over every matching row (not only the page), by key: the list's `totals`. */
    totals?: Record<string, AnyPgColumn | SQL>;
    /**
     * A statement that answers the totals of this query more cheaply than summing its rows (one
     * row, a column per key of `totals`), or undefined for the sum. See ModuleBinding.totalsOf.
     */
    totalsOf?: (raw: RawAggregationQuery) => SQL | undefined;
  },
): Promise<ListTotal & { rows: T[]; totals?: Record<string, number> }> {
  const { table, joins = [], select } = is(source, PgTable) ? { table: source } : source;
  const query = compileAggregation(spec, raw);
  const where = and(options?.baseWhere, query.where);
  const key = spec.tieBreaker;
  const joined = <Q extends PgSelect>(q: Q, only = joins): Q => {
    let result = q;
    for (const join of only) result = result.innerJoin(join.table, join.on) as unknown as Q;
    return result;
  };
  // A join that neither drops nor repeats rows is left out of the count and the sums unless
  // they read it: it would only cost a join per row counted (a month's summary: 14,000 rows).
  const neededBy = (...chunks: unknown[]) =>
    joins.filter((join) => !join.exactlyOne || chunks.some((chunk) => reads(chunk, join.table)));
  const countedJoins = neededBy(where);
  const pageKeys = joined(db.select({ key }).from(table).$dynamic())
    .where(where)
    .orderBy(...query.orderBy)
    .limit(query.limit)
    .offset(query.offset);
  const totals = options?.totals;
  const cheaper = totals && options?.totalsOf?.(raw);
  const summing =
    totals &&
    (cheaper
      ? totalsFrom(db, cheaper, Object.keys(totals))
      : sumsOf(db, totals, (q) => joined(q, neededBy(where, Object.values(totals))), table, where));
  summing?.catch(() => undefined); // handled below, after the page
  const { rows, ...total } = await pageWithTotal(
    query,
    async () => {
      const keys = (await pageKeys).map((row) => row.key);
      if (keys.length === 0) return { rows: [], matched: 0 };
      // Read by their keys, the rows' statement is the same for every page of the list in one
      // order: it is prepared, and planned once (the top-up list's, with its subqueries, took
      // 0.5–0.8 ms to plan and 0.15 ms to run), and built once (rowsStatement).
      const rows = await rowsStatement(source, query.orderBy, (built) =>
        joined((select ? built.select(select) : built.select()).from(table).$dynamic())
          .where(sql`${key} = any(${sql.placeholder("keys")})`)
          .orderBy(...query.orderBy),
      )(db as DbOrTx, { keys });
      return { rows, matched: keys.length };
    },
    () =>
      countUpToLimit(
        db,
        joined(
          db
            .select({ one: sql`1` })
            .from(table)
            .$dynamic(),
          countedJoins,
        ).where(where),
      ),
  );
  const sums = await summing;
  return { ...total, rows: rows as T[], ...(sums ? { totals: sums } : {}) };
}

type RowsStatement = (db: DbOrTx, values: { keys: unknown[] }) => Promise<unknown[]>;

/** The rows' statements of each list source, by the text of their order (see rowsStatement). */
const rowsStatements = new WeakMap<object, Map<string, RowsStatement>>();

/** The orders of one source whose rows' statement is kept built; past them it is built per call. */
const KEPT_ORDERS = 32;

const dialect = new PgDialect();

/**
 * The statement that reads a page's rows by their keys (the placeholder `keys`) in `orderBy`:
 * built once per source and order (a preparedQuery), since its text is the same for every page.
 * The order's text ends with the list's tie-breaker, the key the rows are read by, so it tells
 * the statements of one source apart. The client chooses the order, so a source keeps at most
 * KEPT_ORDERS of them; an order that carries a value (none does today) is built on each call, its
 * value being part of it.
 */
function rowsStatement(
  source: object,
  orderBy: SQL[],
  build: (db: DbOrTx) => {
    prepare(name: string): { execute(values?: object): Promise<unknown[]> };
  },
): RowsStatement {
  const order = dialect.sqlToQuery(sql.join(orderBy, sql`, `));
  let byOrder = rowsStatements.get(source);
  if (!byOrder) rowsStatements.set(source, (byOrder = new Map()));
  let statement = byOrder.get(order.sql);
  if (!statement) {
    statement = preparedQuery(build);
    if (order.params.length === 0 && byOrder.size < KEPT_ORDERS) byOrder.set(order.sql, statement);
  }
  return statement;
}

/** The totals a module's own statement answers (one row, a column per key), as numbers. */
async function totalsFrom(
  db: AnyPgDatabase,
  statement: SQL,
  keys: string[],
): Promise<Record<string, number>> {
  const { rows } = await executePrepared(db as DbOrTx, statement);
  return Object.fromEntries(keys.map((key) => [key, Number(rows[0]?.[key] ?? 0)]));
}

/** The sums of `columns` over every row `where` selects (each 0 when none), as numbers. */
async function sumsOf(
  db: AnyPgDatabase,
  columns: Record<string, AnyPgColumn | SQL>,
  joined: <Q extends PgSelect>(q: Q) => Q,
  table: PgTable,
  where: SQL | undefined,
): Promise<Record<string, number>> {
  const selection = Object.fromEntries(
    Object.entries(columns).map(([key, column]) => [key, sql<string>`coalesce(sum(${column}), 0)`]),
  );
  const [row] = await joined(db.select(selection).from(table).$dynamic()).where(where);
  return Object.fromEntries(Object.keys(columns).map((key) => [key, Number(row?.[key] ?? 0)]));
}
