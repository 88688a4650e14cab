import { createHash } from "node:crypto";

import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type pg from "pg";

import type { DbOrTx } from "./index";

const dialect = new PgDialect();

/**
 * How many statement texts this process prepares; past it, a new text runs unnamed (planned every
 * time, as before). Every connection keeps each statement it prepared, plan included, until it
 * closes, and some texts come from a client's choice (a list's sort): without a bound, sorting a
 * list every which way would grow each connection's memory without end. The server's own texts
 * are about a hundred.
 */
export const MAX_PREPARED_TEXTS = 256;
const preparedNames = new Set<string>();

/** The name a text is prepared under, or undefined once MAX_PREPARED_TEXTS others have one. */
function nameOf(text: string): string | undefined {
  const name = `q_${createHash("sha1").update(text).digest("base64url")}`;
  if (preparedNames.has(name)) return name;
  if (preparedNames.size >= MAX_PREPARED_TEXTS) return undefined;
  preparedNames.add(name);
  return name;
}

/**
 * `db.execute(query)` as a prepared statement named after its text: each connection parses it once
 * and PostgreSQL keeps its generic plan once that costs no more than planning afresh, instead of
 * parsing and planning it on every call (the statistics' and the dashboard's statements took longer
 * to plan than to run). For statements that run often and whose texts come from a small set (their
 * values are parameters): a connection keeps every statement it prepared until it closes, and
 * past MAX_PREPARED_TEXTS texts a new one runs unnamed.
 */
export function executePrepared<T extends Record<string, unknown>>(
  db: DbOrTx,
  query: SQL,
): Promise<pg.QueryResult<T>> {
  const compiled = dialect.sqlToQuery(query);
  return db._.session
    .prepareQuery(compiled, undefined, nameOf(compiled.sql), false)
    .execute() as Promise<pg.QueryResult<T>>;
}

/**
 * A drizzle query built once, its values `sql.placeholder(name)`, then run with `values` in the
 * session it is given (the pool or a transaction) as a prepared statement named after its text.
 * For the statements of a top-up or a payment, a record's read and the audit entry: each finds its
 * rows by key, so one plan serves every value. Building a query took longer than running it
 * prepared (the ledger's insert 0.12 ms; drizzle's building was a quarter of the server's CPU on
 * a top-up), and naming it means hashing its text.
 *
 * Values go to the driver as they are unless drizzle binds the placeholder to a column (an insert's
 * or an update's value), which maps them as the column does, `null` included: a nullable jsonb or
 * timestamp value belongs in `sql\`${sql.placeholder(name)}::jsonb\``, given as the driver takes it.
 * The query is built with the first session it runs in; every call swaps in its own session's
 * connection (drizzle's `client`).
 */
export function preparedQuery<V extends Record<string, unknown>, R>(
  build: (db: DbOrTx) => { prepare(name: string): { execute(values?: V): Promise<R> } },
): (db: DbOrTx, values: V) => Promise<R> {
  let template: NodePgPrepared<R> | undefined;
  return (db, values) => {
    template ??= named<R>(build(db).prepare(""));
    const run = Object.create(template) as NodePgPrepared<R>;
    run.client = clientOf(db);
    return run.execute(values);
  };
}

/**
 * A drizzle node-postgres prepared query, named after its text. The name lives in its
 * `queryConfig` and `rawQueryConfig`; a drizzle without them fails here, loudly, not silently
 * unprepared.
 */
function named<R>(query: unknown): NodePgPrepared<R> {
  const prepared = query as NodePgPrepared<R>;
  if (!prepared.queryConfig || !prepared.rawQueryConfig || !("client" in prepared)) {
    throw new Error("prepared.ts: drizzle's prepared query has no queryConfig or client");
  }
  const name = nameOf(prepared.getQuery().sql);
  prepared.queryConfig.name = name;
  prepared.rawQueryConfig.name = name;
  return prepared;
}

/** The connection (or pool) a drizzle session sends its statements to. */
function clientOf(db: DbOrTx): unknown {
  const { client } = db._.session as unknown as { client?: unknown };
  if (!client) throw new Error("prepared.ts: drizzle's session has no client");
  return client;
}

/** What prepared.ts reads and sets of drizzle's NodePgPreparedQuery. */
interface NodePgPrepared<R> {
  getQuery(): { sql: string };
  queryConfig?: { name?: string };
  rawQueryConfig?: { name?: string };
  client: unknown;
  execute(values?: Record<string, unknown>): Promise<R>;
}
