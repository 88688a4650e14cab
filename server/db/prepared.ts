import { createHash } from "node:crypto";

import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type pg from "pg";

import type { DbOrTx } from "./index";

const dialect = new PgDialect();

/**
 * `db.execute(query)` as a prepared statement named after its text: each connection parses it once
 * and PostgreSQL keeps its generic plan once that costs no more than planning afresh, instead of
 * parsing and planning it on every call (the statistics' and the dashboard's statements took longer
 * to plan than to run). For statements that run often and whose texts come from a small set (their
 * values are parameters): a connection keeps every statement it prepared until it closes.
 */
export function executePrepared<T extends Record<string, unknown>>(
  db: DbOrTx,
  query: SQL,
): Promise<pg.QueryResult<T>> {
  const compiled = dialect.sqlToQuery(query);
  const name = `q_${createHash("sha1").update(compiled.sql).digest("base64url")}`;
  return db._.session.prepareQuery(compiled, undefined, name, false).execute() as Promise<
    pg.QueryResult<T>
  >;
}
