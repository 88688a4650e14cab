/**
 * What the scale benchmarks share: their command line, loading the real server with autocannon
 * (bench/support/cannon.ts, in its own process) while a second autocannon probes /v1/health, the
 * wait of one request on an idle server, seeding a store, and the list of targets met or missed.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";

import { parseArgs, type ParseArgsConfig } from "node:util";

import type { RunningServer } from "../../tests/e2e/support/server";
import { postgresDatabase, type PostgresServer } from "./postgres";
import { cpuSeconds } from "./processes";

export type Engine = "pglite" | "postgres";

/**
 * The command line of a scale benchmark: --engine pglite|postgres|both (both: in `order`),
 * --duration (seconds of each load, default 10), --fresh, and the benchmark's own `options`.
 */
export function benchArgs<O extends ParseArgsConfig["options"]>(options: O, order: Engine[]) {
  const common = {
    engine: { type: "string", default: "both" },
    duration: { type: "string", default: "10" },
    fresh: { type: "boolean", default: false },
  } as const;
  const { values } = parseArgs({ options: { ...common, ...options } as typeof common & O });
  const { engine, duration, fresh } = values as {
    engine: string;
    duration: string;
    fresh: boolean;
  };
  const engines = engine === "both" ? order : [engine];
  if (!engines.every((e) => e === "pglite" || e === "postgres")) {
    throw new Error(`--engine must be pglite, postgres or both, got ${engine}`);
  }
  return { values, engines: engines as Engine[], duration: Number(duration), fresh };
}

export const CONNECTIONS = 20;
const HEALTH_RATE = 20;
export const TARGET_HEALTH_P99 = 20;

export interface LoadSpec {
  url: string;
  connections: number;
  seconds: number;
  /** Requests per second over all connections (default: as fast as answered). */
  rate?: number;
  headers?: Record<string, string>;
  /** JSON bodies to POST in turn; without them the load GETs the URL. */
  bodies?: string[];
  /** List the `id` of every 201 answer. */
  collectIds?: boolean;
}

export interface Measured {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  failures: number;
  /** Answers by HTTP status. */
  statuses: Record<string, number>;
  ids?: number[];
}

/** Runs one load (bench/support/cannon.ts) in its own process. */
export function autocannon(spec: LoadSpec): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "bench/support/cannon.ts"], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    child.stdin.end(JSON.stringify(spec));
    let out = "";
    let err = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    child.stderr.on("data", (b: Buffer) => (err += b.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}: ${err}`));
      resolve(JSON.parse(out) as Measured);
    });
  });
}

/**
 * `CONNECTIONS` connections of load on `path` (GET, or POST of `bodies` in turn) for `seconds`,
 * while /v1/health is probed at 20 requests per second. With `processes` (the server's, and the
 * database's when it runs apart), also the CPU time they spent per request of the load.
 */
export async function load(
  server: RunningServer,
  token: string,
  path: string,
  seconds: number,
  options: Pick<LoadSpec, "bodies" | "collectIds"> & { processes?: () => number[] } = {},
) {
  const { processes, ...spec } = options;
  const cpuBefore = processes && cpuSeconds(processes());
  const [measured, health] = await Promise.all([
    autocannon({
      url: `${server.url}${path}`,
      connections: CONNECTIONS,
      seconds,
      headers: { authorization: token },
      ...spec,
    }),
    autocannon({ url: `${server.url}/v1/health`, connections: 1, seconds, rate: HEALTH_RATE }),
  ]);
  const answered = Object.values(measured.statuses).reduce((sum, n) => sum + n, 0);
  const cpuMsPerRequest =
    cpuBefore === undefined
      ? undefined
      : (1000 * (cpuSeconds(processes!()) - cpuBefore)) / Math.max(answered, 1);
  return { measured, health, cpuMsPerRequest };
}

/** Median of sequential GETs on an idle server: what one member of staff waits. */
export async function alone(server: RunningServer, token: string, path: string) {
  const times: number[] = [];
  for (let i = 0; i < 9; i++) {
    const started = performance.now();
    const response = await fetch(`${server.url}${path}`, { headers: { authorization: token } });
    await response.arrayBuffer();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[4]!;
}

/**
 * One list query: its first answer (checked to succeed: its total, and its time, before any cache
 * or remembered count holds it), two seconds of load to warm the caches and the query plans, the
 * idle wait, then the measured load.
 */
export async function measureList(
  server: RunningServer,
  token: string,
  path: string,
  seconds: number,
  processes?: () => number[],
) {
  const started = performance.now();
  const first = await fetch(`${server.url}${path}`, { headers: { authorization: token } });
  if (!first.ok) throw new Error(`${path}: ${first.status} ${await first.text()}`);
  const body = (await first.json()) as { totalCount: number; totalCountExact: boolean };
  const firstMs = performance.now() - started;
  await load(server, token, path, 2);
  const idle = await alone(server, token, path);
  const loaded = await load(server, token, path, seconds, { processes });
  const total = `${body.totalCount.toLocaleString("en")}${body.totalCountExact ? "" : "+"}`;
  return { ...loaded, idle, first: firstMs, total };
}

/**
 * PostgreSQL shares the machine's cores with the server and autocannon here: 4 connections
 * measured better than the default 10 (fewer busy backends starve the HTTP loop less).
 */
export const POSTGRES_POOL = process.env.DATABASE_POOL_MAX ?? "4";

/**
 * The environment of a benchmark's store: its DATA_DIR (emptied first when `fresh`) and, on
 * PostgreSQL, `database` on the bench server (created, or again when `fresh`) with POSTGRES_POOL
 * connections.
 */
export async function benchStore(
  engine: Engine,
  store: { dataDir: string; database: string; fresh: boolean; postgres?: PostgresServer },
) {
  if (store.fresh) rmSync(store.dataDir, { recursive: true, force: true });
  mkdirSync(store.dataDir, { recursive: true });
  const env: Record<string, string> = { DATA_DIR: store.dataDir };
  if (engine === "postgres") {
    if (!store.postgres) throw new Error("No PostgreSQL server to bench on");
    env.DATABASE_URL = await postgresDatabase(store.postgres.url, store.database, store.fresh);
    env.DATABASE_POOL_MAX = POSTGRES_POOL;
  }
  return env;
}

export const engineName = (engine: Engine) => (engine === "pglite" ? "PGlite" : "PostgreSQL");

/** `npm run seed` with these arguments on the store `env` names; returns the seconds it took. */
export function seed(env: Record<string, string>, seedArgs: string[]): number {
  const started = Date.now();
  execFileSync(process.execPath, ["--import", "tsx", "server/seed/seed-cli.ts", ...seedArgs], {
    env: { ...process.env, NODE_ENV: "development", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return (Date.now() - started) / 1000;
}

/** An aggregation list's path with its JSON-encoded parameters. */
export function listPath(collection: string, params: Record<string, unknown>) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) query.set(key, JSON.stringify(value));
  return `/v1/api/${collection}/aggregation?${query.toString()}`;
}

export const fmt = (n: number, digits = 0) => n.toFixed(digits).padStart(8);

/** Targets met or missed, printed as they are checked and counted at the end. */
export function targets() {
  let met = 0;
  let missed = 0;
  return {
    check(ok: boolean, text: string) {
      if (ok) met++;
      else missed++;
      console.log(`  ${ok ? "met   " : "MISSED"}  ${text}`);
    },
    summary() {
      console.log(`\n${met} targets met, ${missed} missed`);
    },
  };
}
