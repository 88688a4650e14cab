/**
 * Speed at scale (issue 5): seeds the users table to 10,000 and to 1,000,000 rows, starts the real
 * server on it, and loads GET /v1/api/users/aggregation with autocannon (20 connections over
 * loopback) for each list query the console makes, on the embedded PGlite store and on
 * PostgreSQL. While each load runs, a second autocannon probes GET /v1/health at 20 requests per
 * second. Prints the first answer's time (nothing cached, no count remembered), the idle wait,
 * requests per second, p50 and p99 of every query, the health check's p99, and the targets:
 * PostgreSQL p99 ≤ 30 ms, PGlite p99 ≤ 120 ms, health p99 ≤ 20 ms, p99 at 1M ≤ 2× p99 at 10k.
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
import { tmpdir } from "node:os";
import { join } from "node:path";

import { signInSuperAdmin, startServer } from "../tests/e2e/support/server";
import {
  benchArgs,
  benchStore,
  CONNECTIONS,
  engineName,
  fmt,
  listPath,
  measureList,
  POSTGRES_POOL,
  seed,
  TARGET_HEALTH_P99,
  targets,
  type Engine,
  type Measured,
} from "./support/load";
import { postgresServer, type PostgresServer } from "./support/postgres";

const {
  values: args,
  engines,
  duration,
  fresh,
} = benchArgs(
  {
    sizes: { type: "string", default: "10000,1000000" },
    queries: { type: "string" },
  },
  ["pglite", "postgres"],
);
const sizes = args.sizes.split(",").map((s) => Number(s.replace(/_/g, "")));
const PORT = Number(process.env.BENCH_PORT ?? 8195);
const TARGET_P99 = { pglite: 120, postgres: 30 } as const;
const WORK = join(tmpdir(), "campus-wallet-bench");

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

interface Row {
  engine: Engine;
  size: number;
  scenario: string;
  list: Measured;
  health: Measured;
}

const rows: Row[] = [];
let postgres: PostgresServer | undefined;

try {
  for (const engine of engines) {
    if (engine === "postgres") postgres = postgresServer(WORK, 55433);
    for (const size of sizes) {
      const dataDir = join(WORK, `${engine}-${size}`);
      const database = `bench_users_${size}`;
      const env = await benchStore(engine, { dataDir, database, fresh, postgres });
      const seconds = seed(env, ["--users", `${size}`]);
      const server = await startServer({ port: PORT, dataDir, env });
      try {
        const { token } = await signInSuperAdmin(server);
        console.log(
          `\n${engineName(engine)}, ${size.toLocaleString("en")} users ` +
            `(seed step ${seconds.toFixed(0)} s), ${CONNECTIONS} connections, ${duration} s each` +
            (engine === "postgres" ? `, DATABASE_POOL_MAX=${POSTGRES_POOL}` : ""),
        );
        console.log(
          `  ${"query".padEnd(26)}first ms alone ms   req/s   p50 ms   p99 ms  health p99  failures  totalCount`,
        );
        for (const scenario of scenarios) {
          const path = listPath("users", scenario.params);
          const {
            measured: list,
            health,
            idle,
            first,
            total,
          } = await measureList(server, token, path, duration);
          rows.push({ engine, size, scenario: scenario.name, list, health });
          console.log(
            `  ${scenario.name.padEnd(26)}${fmt(first, 1)}${fmt(idle, 1)}${fmt(list.requestsPerSecond)}${fmt(list.p50, 1)}` +
              `${fmt(list.p99, 1)}${fmt(health.p99, 1).padStart(12)}` +
              `${String(list.failures + health.failures).padStart(10)}${total.padStart(12)}`,
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
const { check, summary } = targets();
for (const row of rows.filter((r) => r.size === largest)) {
  const label = `${engineName(row.engine)} ${row.scenario}`;
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
summary();
