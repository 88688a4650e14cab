/**
 * One database per test file, copied from a migrated and seeded template that is built once and
 * reused for as long as the server code that shapes it is unchanged:
 * - embedded (default): the template is a PGlite DATA_DIR in the OS temp directory, and each test
 *   file gets a copy (reopening a copy takes under a second; building the template takes seconds);
 * - DATABASE_URL set: the template is a database on that server, and each test file gets
 *   `CREATE DATABASE … TEMPLATE …`, dropped again when the file is done.
 * Test files run concurrently, so the template is built under a lock: a lock file (embedded) or a
 * PostgreSQL advisory lock.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { sql } from "drizzle-orm";
import pg from "pg";

import { loadConfig, type Config } from "../../../server/config";
import { openDatabase, type Database } from "../../../server/db";
import { seedDatabase } from "../../../server/seed/seed";
import { copyInto, SCRATCH_DIR } from "../../support/scratch";

const ROOT = resolve(fileURLToPath(new URL("../../..", import.meta.url)));

const TEMPLATE_PREFIX = "ucsi-wallet-test-template-";
const PG_TEMPLATE_PREFIX = "wallet_test_tpl_";
const PG_TEMPLATE_LOCK = 7_351_004_299;

/** A fixed environment, so tests never depend on the developer's shell. */
export function testEnv(dataDir: string, extra: Record<string, string> = {}) {
  return {
    DATA_DIR: dataDir,
    JWT_SECRET: "test-secret-that-is-long-enough-for-hs256-0123456789",
    SECOND_FACTOR_KEY: "test-second-factor-key-long-enough-0123456789",
    INTEGRITY_SIGNING_KEY: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
    LOG_LEVEL: "silent",
    NODE_ENV: "test",
    // A test file signs in once and may act for longer than the default 5 minutes on a busy
    // machine; the step-up tests set the default back (tests/server/second-factor.test.ts).
    STEP_UP_MINUTES: "60",
    // Hashes at the lowest cost allowed outside production (~3 ms, not ~90 ms): the suite
    // hashes about a thousand passwords (password.test.ts and config.test.ts check the default
    // and its limits). Production's own minimum where a test runs as production.
    PASSWORD_HASH_COST: extra.NODE_ENV === "production" ? "15" : "10",
    ...extra,
  };
}

export function testConfig(dataDir: string, extra: Record<string, string> = {}): Config {
  return loadConfig(testEnv(dataDir, extra));
}

/** The PostgreSQL server the suite runs against, or undefined for the embedded store. */
export const POSTGRES_URL = process.env.DATABASE_URL?.trim() || undefined;

/** Everything that decides what a seeded template holds; any change means a new template. */
function templateFingerprint(): string {
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|mjs|sql|json)$/.test(entry.name)) {
        hash.update(relative(ROOT, path)).update(readFileSync(path));
      }
    }
  };
  walk(join(ROOT, "server"));
  walk(join(ROOT, "src", "shared"));
  // And how this file builds it.
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  return hash.digest("hex").slice(0, 16);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function pidAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readIfExists(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw error;
  }
}

/**
 * VACUUM ANALYZE of a seeded template, as a running server's embedded-vacuum job or PostgreSQL's
 * autovacuum does soon after a seed: without it every copy was planned with no statistics at all
 * (each table "never vacuumed", no column statistics), which no campus runs with, and the
 * embedded store's settlement property test took 42 s where it takes 20 s analysed.
 */
async function analyzed(database: Database) {
  await database.db.execute(sql`vacuum analyze`);
}

/** Builds the directory `target` with `build` unless it is ready; one builder at a time. */
async function buildDirOnce(target: string, build: (dir: string) => Promise<void>) {
  const lockFile = `${target}.lock`;
  const ready = join(target, "ready");
  for (;;) {
    if (existsSync(ready)) return;
    let fd: number;
    try {
      fd = openSync(lockFile, "wx");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number.parseInt(readIfExists(lockFile) || "NaN", 10);
      const ageMs = Date.now() - (statSync(lockFile, { throwIfNoEntry: false })?.mtimeMs ?? 0);
      const stale = Number.isInteger(holder) ? !pidAlive(holder) : ageMs > 10_000;
      if (stale) rmSync(lockFile, { force: true });
      else await sleep(200);
      continue;
    }
    try {
      writeSync(fd, String(process.pid));
      if (existsSync(ready)) return;
      const building = `${target}.building-${process.pid}`;
      await rm(building, { recursive: true, force: true });
      await build(building);
      writeFileSync(join(building, "ready"), "");
      await rm(target, { recursive: true, force: true });
      renameSync(building, target);
      return;
    } finally {
      closeSync(fd);
      rmSync(lockFile, { force: true });
    }
  }
}

/** Templates of older code versions, not touched for an hour, are removed. */
function removeOldTemplates(keep: string) {
  const hourAgo = Date.now() - 3_600_000;
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(TEMPLATE_PREFIX)) continue;
    const path = join(tmpdir(), name);
    if (path === keep || path.startsWith(`${keep}.`)) continue;
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat && stat.mtimeMs < hourAgo) rmSync(path, { recursive: true, force: true });
  }
}

async function embeddedTemplate(): Promise<string> {
  const target = join(tmpdir(), `${TEMPLATE_PREFIX}${templateFingerprint()}`);
  await buildDirOnce(target, async (dir) => {
    const database = await openDatabase({ dataDir: dir });
    try {
      await seedDatabase(database.db, testConfig(dir));
      await analyzed(database);
    } finally {
      await database.close();
    }
  });
  removeOldTemplates(target);
  return target;
}

function databaseUrl(serverUrl: string, name: string) {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withServerClient<T>(serverUrl: string, run: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function postgresTemplate(serverUrl: string, scratchDir: string): Promise<string> {
  const name = `${PG_TEMPLATE_PREFIX}${templateFingerprint()}`;
  await withServerClient(serverUrl, async (client) => {
    await client.query("select pg_advisory_lock($1)", [PG_TEMPLATE_LOCK]);
    try {
      const exists = await client.query("select 1 from pg_database where datname = $1", [name]);
      if (exists.rowCount) return;
      const building = `${name}_building`;
      await client.query(`drop database if exists "${building}" with (force)`);
      await client.query(`create database "${building}"`);
      const database = await openDatabase({
        dataDir: scratchDir,
        databaseUrl: databaseUrl(serverUrl, building),
      });
      try {
        await seedDatabase(database.db, testConfig(scratchDir));
        await analyzed(database);
      } finally {
        await database.close();
      }
      await client.query(`alter database "${building}" rename to "${name}"`);
      const old = await client.query<{ datname: string }>(
        "select datname from pg_database where datname like $1 and datname <> $2",
        [`${PG_TEMPLATE_PREFIX}%`, name],
      );
      for (const row of old.rows) {
        await client.query(`drop database if exists "${row.datname}" with (force)`);
      }
    } finally {
      await client.query("select pg_advisory_unlock($1)", [PG_TEMPLATE_LOCK]);
    }
  });
  return name;
}

export interface TestDatabase {
  kind: "embedded" | "postgres";
  /** The DATA_DIR of this test file (the embedded store lives in it). */
  dataDir: string;
  /** The connection string of this file's database on PostgreSQL. */
  url: string | undefined;
  /** The open database; replaced by `reopen`. */
  database: Database;
  config(extra?: Record<string, string>): Config;
  /** Closes the store and opens the same one again (data survives; migrations are a no-op). */
  reopen(): Promise<Database>;
  /** Closes and deletes this file's database. */
  destroy(): Promise<void>;
}

/** A fresh, migrated and seeded database for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const dataDir = await mkdtemp(join(SCRATCH_DIR, "ucsi-wallet-test-"));
  let url: string | undefined;
  let dropDatabase = async () => {};

  if (POSTGRES_URL) {
    const serverUrl = POSTGRES_URL;
    const template = await postgresTemplate(serverUrl, dataDir);
    const name = `wallet_test_${process.pid}_${randomBytes(4).toString("hex")}`;
    await withServerClient(serverUrl, async (client) => {
      for (let attempt = 1; ; attempt += 1) {
        try {
          await client.query(`create database "${name}" template "${template}"`);
          return;
        } catch (error) {
          // 55006: another session is copying the template at this very moment.
          if ((error as { code?: string }).code !== "55006" || attempt >= 20) throw error;
          await sleep(100 * attempt);
        }
      }
    });
    url = databaseUrl(serverUrl, name);
    dropDatabase = () =>
      withServerClient(serverUrl, async (client) => {
        await client.query(`drop database if exists "${name}" with (force)`);
      });
  } else {
    copyInto(await embeddedTemplate(), dataDir);
    rmSync(join(dataDir, "ready"), { force: true });
  }

  const open = () => openDatabase({ dataDir, databaseUrl: url });
  const handle: TestDatabase = {
    kind: POSTGRES_URL ? "postgres" : "embedded",
    dataDir,
    url,
    database: await open(),
    config: (extra = {}) => testConfig(dataDir, url ? { DATABASE_URL: url, ...extra } : extra),
    async reopen() {
      await handle.database.close();
      handle.database = await open();
      return handle.database;
    },
    async destroy() {
      await handle.database.close();
      await dropDatabase();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return handle;
}
