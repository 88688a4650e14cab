import { sql } from "drizzle-orm";

import type { ScheduledJob } from "./scheduler";

/** Tables up to this size are vacuumed on every run: a few milliseconds each. */
const SMALL_TABLE_BYTES = 8 * 1024 * 1024;

/** A larger table is vacuumed once it has grown by this share since it last was. */
const GROWTH = 0.1;

/**
 * VACUUM ANALYZE of the embedded store's tables, one statement per table. PGlite has no
 * autovacuum (nor the activity statistics that would say which tables changed): without this job
 * the planner keeps the statistics of the last seed or upgrade (a table filled since is planned
 * as if empty: the dashboard counted pending riders from the heap instead of an index-only scan),
 * updated tables never reclaim their dead rows, and index-only scans (counts, deep pages) go back
 * to the heap for every page changed since. Small tables every run; a large one when it has
 * grown by a tenth since its last vacuum (its pages then and now, as autovacuum's insert
 * threshold): on the 10-million-row store the ledger takes 2.5 s, the users 0.8 s, the whole store
 * 5.5 s, and one table at a time lets requests through between them. PostgreSQL's own autovacuum
 * does this on a server; the job runs only embedded.
 */
export function embeddedVacuumJob(everySeconds = 3600): ScheduledJob {
  return {
    name: "embedded-vacuum",
    everySeconds,
    async run(db) {
      const started = Date.now();
      const { rows } = await db.execute<{ name: string }>(sql`
        select quote_ident(relname) as name from (
          select relname, relpages,
                 pg_relation_size(oid) as bytes,
                 pg_relation_size(oid) / current_setting('block_size')::int as pages
          from pg_class
          where relkind = 'r' and relnamespace = 'public'::regnamespace) t
        where bytes <= ${SMALL_TABLE_BYTES} or pages > relpages * ${1 + GROWTH}::float8
        order by relname`);
      for (const { name } of rows) await db.execute(sql.raw(`vacuum analyze ${name}`));
      return { tables: rows.length, ms: Date.now() - started };
    },
  };
}
