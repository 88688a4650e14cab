import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { drizzle } from "drizzle-orm/node-postgres";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";

import { startEmbeddedServer } from "./embedded";
import { acquireDataDirLock } from "./lock";
import * as schema from "./schema";

export type Db = NodePgDatabase<typeof schema>;
/** A transaction handle; functions that take `Db | Tx` work inside or outside a transaction. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  pool: pg.Pool;
  kind: "embedded" | "postgres";
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  dataDir: string;
  /** A PostgreSQL connection string; without it the embedded store in `dataDir` is used. */
  databaseUrl?: string;
  /** Connections to `databaseUrl` (default 10). */
  poolMax?: number;
  /**
   * Milliseconds after which PostgreSQL cancels a statement (SQLSTATE 57014; the API answers 503
   * QUERY_TIMEOUT), so one runaway query cannot hold a connection the others wait for. Unset: no
   * limit (seeding, benchmarks). The embedded store has no limit: PGlite runs a query to its end.
   */
  statementTimeoutMs?: number;
  /** Apply pending migrations (default true). */
  migrate?: boolean;
  /** Where the migrations are (default MIGRATIONS_FOLDER; a test upgrades from an older set). */
  migrationsFolder?: string;
  /**
   * Told about failures outside any request: `fatal` when the embedded database stopped (nothing
   * will work until a restart), not fatal when an idle connection dropped (the pool reconnects).
   */
  onError?: (error: Error, fatal: boolean) => void;
}

/** How long a request waits for a connection to PostgreSQL before it is refused. */
const CONNECT_TIMEOUT_MS = 5000;

export const MIGRATIONS_FOLDER = fileURLToPath(new URL("./migrations", import.meta.url));
/** Serialises concurrent migrators (several servers starting on one PostgreSQL). */
const MIGRATION_LOCK_KEY = 7_351_004_211;

/**
 * Opens the store: PostgreSQL through a pool when `databaseUrl` is set, otherwise the embedded
 * PGlite in `dataDir`, served from a worker thread and reached with the same `pg` driver. The
 * embedded pool has ONE connection: the socket server runs one transaction at a time, so code must
 * never hold a transaction while awaiting another connection (use the `tx` handle inside).
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const onError = options.onError ?? ((error: Error) => console.error(error));
  mkdirSync(options.dataDir, { recursive: true });

  let pool: pg.Pool;
  let kind: Database["kind"];
  let stopEmbedded = async () => {};
  let releaseLock = () => {};

  if (options.databaseUrl) {
    kind = "postgres";
    pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolMax ?? 10,
      statement_timeout: options.statementTimeoutMs ?? 0,
      // While PostgreSQL is away a request waits this long for a connection, then answers 503
      // DATABASE_UNAVAILABLE, instead of hanging until PostgreSQL returns (docs/fleet.md).
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // No parallel plans and no JIT: the API's queries are short and many run at once, so
      // starting workers (the dashboard's trend took 14 ms instead of 5) or compiling (1 s of a
      // month's settlement run) costs more than it saves, and takes the cores others need.
      options: "-c max_parallel_workers_per_gather=0 -c jit=off",
    });
  } else {
    kind = "embedded";
    // Losing the lock means another process may be writing the same files: stop at once.
    const lock = await acquireDataDirLock(options.dataDir, {
      onLost: (error) => onError(error, true),
    });
    releaseLock = lock.release;
    try {
      const embedded = await startEmbeddedServer(options.dataDir, (error) => onError(error, true));
      stopEmbedded = embedded.stop;
      pool = new pg.Pool({
        host: embedded.host,
        port: embedded.port,
        user: "postgres",
        database: "postgres",
        max: 1,
        idleTimeoutMillis: 0,
        // PGlite is ONE backend behind every socket connection, so session state outlives the
        // connection that made it: when a failed query gets its connection replaced (pg's pool
        // drops a client whose query errored), the backend still holds that connection's named
        // prepared statements, and the new client's first `prepare("session_administrator")`
        // would fail with "already exists", on every request, until restart. Each new connection
        // therefore starts from a clean session. (A real PostgreSQL ends the session with the
        // connection, so the postgres pool needs nothing.)
        onConnect: resetEmbeddedSession,
      });
    } catch (error) {
      lock.release();
      throw error;
    }
  }
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on("error", (error) => onError(error, false));
  // Nor may a checked-out one: the pool listens to its clients' errors only while they are idle,
  // and a client a transaction holds between two statements, when PostgreSQL goes away, emits
  // 'error' with no listener and so killed the process (bench/fleet.ts, PostgreSQL restart). Its
  // next statement fails instead (503 DATABASE_UNAVAILABLE), and the pool drops it on release.
  pool.on("connect", (client) => {
    client.on("error", (error) => onError(error, false));
  });

  const db = drizzle({ client: pool, schema });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    try {
      await pool.end();
    } finally {
      try {
        await stopEmbedded();
      } finally {
        releaseLock();
      }
    }
  };

  try {
    await pool.query("select 1");
    if (options.migrate !== false) {
      await applyMigrations(pool, kind, options.migrationsFolder ?? MIGRATIONS_FOLDER);
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { db, pool, kind, close };
}

/** Forgets what a previous connection left in the shared embedded backend. */
async function resetEmbeddedSession(client: pg.ClientBase): Promise<void> {
  await client.query("DEALLOCATE ALL");
}

/** How many migrations the database has applied (none before its first start). */
async function appliedMigrations(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ exists: boolean }>(
    "select to_regclass('drizzle.__drizzle_migrations') is not null as exists",
  );
  if (!rows[0]!.exists) return 0;
  const counted = await client.query<{ applied: number }>(
    "select count(*)::int as applied from drizzle.__drizzle_migrations",
  );
  return counted.rows[0]!.applied;
}

async function applyMigrations(pool: pg.Pool, kind: Database["kind"], migrationsFolder: string) {
  const client = await pool.connect();
  try {
    if (kind === "postgres") {
      // A migration (an index over a big ledger) may take longer than a request may.
      await client.query("set statement_timeout = 0");
      await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    }
    try {
      const before = await appliedMigrations(client);
      await migrate(drizzle({ client }), { migrationsFolder });
      // An upgrade (not a first start) ends with a VACUUM: a migration that rewrites a table
      // (0023 rewrote users) leaves it without a visibility map, and autovacuum does not count a
      // rewrite, so index-only scans (list pages, counts) would read every row's page until
      // enough rows changed: a deep users page's query took 86 ms at a million users, not 1 ms.
      // A whole-database VACUUM skips the pages already all-visible.
      if (before > 0 && (await appliedMigrations(client)) > before) {
        await client.query("vacuum analyze");
      }
    } finally {
      if (kind === "postgres") {
        await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
        await client.query("reset statement_timeout");
      }
    }
  } finally {
    client.release();
  }
}
