/**
 * Speed at scale (issue 5): seeds the users table to 10,000 and to 1,000,000 rows, starts the real
 * server on it, and loads GET /v1/api/users/aggregation with autocannon (20 connections over
 * loopback) for each list query the console makes, on the embedded PGlite store and on
 * PostgreSQL. While each load runs, a second autocannon probes GET /v1/health at 20 requests per
 * second. Prints requests per second, p50 and p99 of every query, the health check's p99, and the
 * targets: PostgreSQL p99 ≤ 30 ms, PGlite p99 ≤ 120 ms, health p99 ≤ 20 ms, p99 at 1M ≤ 2× p99 at 10k.
 *
 *   npm run bench:scale [-- --engine pglite|postgres|both] [--sizes 10000,1000000] [--duration 10]
 *                       [--fresh] [--queries status,deep]
 *
 * Seeded stores are kept under $TMPDIR/campus-wallet-bench and reused by later runs (a million
 * users take about two minutes to seed on PGlite); --fresh seeds again. --queries runs only the
 * queries whose names contain one of the given words. PostgreSQL: set
 * BENCH_DATABASE_URL to a server whose user may create databases; without it the script starts a
 * throwaway cluster from Debian's postgresql package (/usr/lib/postgresql/<version>/bin) on port
 * 55433 with shared_buffers=1GB, and stops it at the end.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";

import { demoLogins, startServer, type RunningServer } from "../tests/e2e/support/server";

const { values: args } = parseArgs({
  options: {
    engine: { type: "string", default: "both" },
    sizes: { type: "string", default: "10000,1000000" },
    duration: { type: "string", default: "10" },
    fresh: { type: "boolean", default: false },
    queries: { type: "string" },
  },
});
const engines = args.engine === "both" ? ["pglite", "postgres"] : [args.engine];
if (!engines.every((e) => e === "pglite" || e === "postgres")) {
  throw new Error(`--engine must be pglite, postgres or both, got ${args.engine}`);
}
const sizes = args.sizes.split(",").map((s) => Number(s.replace(/_/g, "")));
const duration = Number(args.duration);
const CONNECTIONS = 20;
const HEALTH_RATE = 20;
const PORT = Number(process.env.BENCH_PORT ?? 8195);
const TARGET_P99 = { pglite: 120, postgres: 30 } as const;
const TARGET_HEALTH_P99 = 20;
const WORK = join(tmpdir(), "campus-wallet-bench");
/**
 * PostgreSQL shares the machine's cores with the server and autocannon here: 4 connections
 * measured better than the default 10 (fewer busy backends starve the HTTP loop less).
 */
const POSTGRES_POOL = process.env.DATABASE_POOL_MAX ?? "4";

type Engine = "pglite" | "postgres";

/** The list queries the console makes, as the users list and its filters send them. */
const SCENARIOS: Array<{ name: string; params: Record<string, unknown> }> = [
  { name: "page 1, newest first", params: { sort: { createdAt: -1 } } },
  {
    name: "status filter (pending)",
    params: { filter: { approvalStatus: "pending" }, sort: { createdAt: -1 } },
  },
  // A full name: in the seeded data one user in 120 has it (8,300 at a million).
  { name: 'search "siti wong"', params: { filter: { $search: "siti wong" } } },
  // One account, as staff look a user up by the number on a receipt.
  { name: 'search "W000004321"', params: { filter: { $search: "W000004321" } } },
  // Rows 9,991–10,000: ten times deeper than the console's pager reaches (1,000 counted rows).
  { name: "deep page (1,000)", params: { pagination: { page: 1000, pageSize: 10 } } },
];

const chosen = args.queries?.split(",").map((word) => word.trim().toLowerCase());
const scenarios = SCENARIOS.filter(
  (scenario) => !chosen || chosen.some((word) => scenario.name.toLowerCase().includes(word)),
);
if (scenarios.length === 0) throw new Error(`--queries ${args.queries} names no query`);

function listPath(params: Record<string, unknown>) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) query.set(key, JSON.stringify(value));
  return `/v1/api/users/aggregation?${query.toString()}`;
}

/** Median of sequential requests on an idle server: what one member of staff waits. */
async function alone(server: RunningServer, token: string, path: string) {
  const times: number[] = [];
  for (let i = 0; i < 9; i++) {
    const started = performance.now();
    const response = await fetch(`${server.url}${path}`, { headers: { authorization: token } });
    await response.arrayBuffer();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[4]!;
}

interface Measured {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  failures: number;
}

/** Runs the autocannon CLI in its own process (so it does not share a CPU loop with the prober). */
function autocannon(url: string, options: string[]): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = spawn("node_modules/.bin/autocannon", ["--json", ...options, url], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    child.stderr.on("data", (b: Buffer) => (err += b.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}: ${err}`));
      const result = JSON.parse(out) as {
        requests: { average: number };
        latency: { p50: number; p99: number };
        errors: number;
        timeouts: number;
        non2xx: number;
      };
      resolve({
        requestsPerSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        failures: result.errors + result.timeouts + result.non2xx,
      });
    });
  });
}

async function load(server: RunningServer, token: string, path: string, seconds: number) {
  const [list, health] = await Promise.all([
    autocannon(`${server.url}${path}`, [
      "-c",
      String(CONNECTIONS),
      "-d",
      String(seconds),
      "-H",
      `authorization=${token}`,
    ]),
    autocannon(`${server.url}/v1/health`, [
      "-c",
      "1",
      "-R",
      String(HEALTH_RATE),
      "-d",
      String(seconds),
    ]),
  ]);
  return { list, health };
}

/** A PostgreSQL server to bench on: BENCH_DATABASE_URL, or a throwaway local cluster. */
async function postgresServer(): Promise<{ url: string; stop: () => void }> {
  const given = process.env.BENCH_DATABASE_URL;
  if (given) return { url: given, stop: () => undefined };
  const versions = existsSync("/usr/lib/postgresql") ? readdirSync("/usr/lib/postgresql") : [];
  const version = versions.sort((a, b) => Number(a) - Number(b)).at(-1);
  if (!version) {
    throw new Error("No PostgreSQL: set BENCH_DATABASE_URL or install Debian's postgresql package");
  }
  const bin = `/usr/lib/postgresql/${version}/bin`;
  const dir = join(WORK, `postgres-${version}`);
  const asPostgres = process.getuid?.() === 0;
  const run = (command: string, commandArgs: string[]) =>
    asPostgres
      ? execFileSync("runuser", ["-u", "postgres", "--", `${bin}/${command}`, ...commandArgs])
      : execFileSync(`${bin}/${command}`, commandArgs);
  mkdirSync(dir, { recursive: true });
  if (asPostgres) execFileSync("chown", ["postgres", dir]);
  if (!existsSync(join(dir, "data", "PG_VERSION"))) {
    run("initdb", ["-D", join(dir, "data"), "-U", "postgres", "-A", "trust"]);
  }
  const port = 55433;
  run("pg_ctl", [
    "-D",
    join(dir, "data"),
    "-l",
    join(dir, "log"),
    "-w",
    "-o",
    `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c shared_buffers=1GB`,
    "start",
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => run("pg_ctl", ["-D", join(dir, "data"), "-m", "fast", "stop"]),
  };
}

/** The database for one size on the bench server, created if missing (or again with --fresh). */
async function postgresDatabase(serverUrl: string, size: number) {
  const name = `bench_users_${size}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    if (args.fresh) await admin.query(`drop database if exists ${name}`);
    const { rowCount } = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (!rowCount) await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Seeds (or tops up) the store to `size` users; returns the seconds it took. */
function seed(env: Record<string, string>, size: number): number {
  const started = Date.now();
  execFileSync(
    process.execPath,
    ["--import", "tsx", "server/db/seed-cli.ts", "--users", `${size}`],
    {
      env: { ...process.env, NODE_ENV: "development", LOG_LEVEL: "warn", ...env },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  return (Date.now() - started) / 1000;
}

async function signIn(server: RunningServer) {
  const login = demoLogins(server.output()).get("super administrator");
  if (!login) throw new Error(`no demo login printed:\n${server.output()}`);
  const response = await fetch(`${server.url}/v1/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(login),
  });
  if (!response.ok) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

interface Row {
  engine: Engine;
  size: number;
  scenario: string;
  list: Measured;
  health: Measured;
}

const fmt = (n: number, digits = 0) => n.toFixed(digits).padStart(8);
const rows: Row[] = [];
let postgres: Awaited<ReturnType<typeof postgresServer>> | undefined;

try {
  for (const engine of engines as Engine[]) {
    if (engine === "postgres") postgres = await postgresServer();
    for (const size of sizes) {
      const dataDir = join(WORK, `${engine}-${size}`);
      if (args.fresh) rmSync(dataDir, { recursive: true, force: true });
      mkdirSync(dataDir, { recursive: true });
      const env: Record<string, string> = { DATA_DIR: dataDir };
      if (engine === "postgres") {
        env.DATABASE_URL = await postgresDatabase(postgres!.url, size);
        env.DATABASE_POOL_MAX = POSTGRES_POOL;
      }
      const seconds = seed(env, size);
      const server = await startServer({ port: PORT, dataDir, env });
      try {
        const token = await signIn(server);
        console.log(
          `\n${engine === "pglite" ? "PGlite" : "PostgreSQL"}, ${size.toLocaleString("en")} users ` +
            `(seed step ${seconds.toFixed(0)} s), ${CONNECTIONS} connections, ${duration} s each` +
            (engine === "postgres" ? `, DATABASE_POOL_MAX=${POSTGRES_POOL}` : ""),
        );
        console.log(
          `  ${"query".padEnd(26)}alone ms   req/s   p50 ms   p99 ms  health p99  failures  totalCount`,
        );
        for (const scenario of scenarios) {
          const path = listPath(scenario.params);
          const first = await fetch(`${server.url}${path}`, { headers: { authorization: token } });
          if (!first.ok) throw new Error(`${scenario.name}: ${first.status} ${await first.text()}`);
          const body = (await first.json()) as { totalCount: number; totalCountExact: boolean };
          await load(server, token, path, 2); // warm the caches and the query plans
          const idle = await alone(server, token, path);
          const measured = await load(server, token, path, duration);
          rows.push({ engine, size, scenario: scenario.name, ...measured });
          console.log(
            `  ${scenario.name.padEnd(26)}${fmt(idle, 1)}${fmt(measured.list.requestsPerSecond)}${fmt(measured.list.p50, 1)}` +
              `${fmt(measured.list.p99, 1)}${fmt(measured.health.p99, 1).padStart(12)}` +
              `${String(measured.list.failures + measured.health.failures).padStart(10)}` +
              `${`${body.totalCount.toLocaleString("en")}${body.totalCountExact ? "" : "+"}`.padStart(12)}`,
          );
        }
      } finally {
        await server.stop({ keepData: true });
      }
    }
  }
} finally {
  postgres?.stop();
}

// Targets.
const largest = Math.max(...sizes);
const smallest = Math.min(...sizes);
console.log(`\nTargets at ${largest.toLocaleString("en")} users:`);
let met = 0;
let missed = 0;
const check = (ok: boolean, text: string) => {
  if (ok) met++;
  else missed++;
  console.log(`  ${ok ? "met   " : "MISSED"}  ${text}`);
};
for (const row of rows.filter((r) => r.size === largest)) {
  const label = `${row.engine === "pglite" ? "PGlite" : "PostgreSQL"} ${row.scenario}`;
  const target = TARGET_P99[row.engine];
  check(row.list.p99 <= target, `${label}: p99 ${row.list.p99} ms ≤ ${target} ms`);
  check(
    row.health.p99 <= TARGET_HEALTH_P99,
    `${label}: health p99 ${row.health.p99} ms ≤ ${TARGET_HEALTH_P99} ms`,
  );
  check(row.list.failures === 0 && row.health.failures === 0, `${label}: no failed request`);
  const small = rows.find(
    (r) => r.engine === row.engine && r.size === smallest && r.scenario === row.scenario,
  );
  if (small && smallest !== largest) {
    const ratio = row.list.p99 / Math.max(small.list.p99, 1);
    check(
      ratio <= 2,
      `${label}: p99 at ${largest.toLocaleString("en")} is ${ratio.toFixed(2)}× p99 at ` +
        `${smallest.toLocaleString("en")} (${small.list.p99} ms) ≤ 2×`,
    );
  }
}
console.log(`\n${met} targets met, ${missed} missed`);
