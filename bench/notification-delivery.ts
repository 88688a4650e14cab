/**
 * App notification delivery at scale (issue 13): seeds the users table to --users rows (default
 * 100,000), starts the real server on it, schedules one notification to every role to be sent at
 * once, and measures how long its delivery takes (the server's own send time → sent time) while
 * GET /v1/api/app-notifications/aggregation is requested the whole time by --probes loops, one
 * request after another. Prints the delivery's time and recipients, and the list's p50 / p99 /
 * max during it. Targets (PostgreSQL): delivery ≤ 10 s, list p99 ≤ 50 ms; PGlite is reported.
 *
 *   npm run bench:notifications [-- --engine pglite|postgres|both] [--users 100000]
 *                                  [--probes 2] [--fresh]
 *
 * Stores are kept under $TMPDIR/campus-wallet-bench (as bench:scale's) and reused; each run adds
 * one notification. PostgreSQL: BENCH_DATABASE_URL, or a throwaway cluster (bench/support/postgres).
 */
import { tmpdir } from "node:os";
import { join } from "node:path";

import { signInSuperAdmin, startServer } from "../tests/e2e/support/server";
import { benchArgs, benchStore, engineName, fmt, listPath, seed, targets } from "./support/load";
import { postgresServer, type PostgresServer } from "./support/postgres";

const {
  values: args,
  engines,
  fresh,
} = benchArgs(
  { users: { type: "string", default: "100000" }, probes: { type: "string", default: "2" } },
  ["postgres", "pglite"],
);
const USERS = Number(args.users.replace(/_/g, ""));
const PROBES = Number(args.probes);
const PORT = Number(process.env.BENCH_PORT ?? 8196);
const WORK = join(tmpdir(), "campus-wallet-bench");
const TARGET_SECONDS = 10;
const TARGET_P99 = 50;

interface Notification {
  id: number;
  status: string;
  sendAt: string;
  sentAt: string | null;
  recipientCount: number;
}

interface Row {
  engine: "pglite" | "postgres";
  seconds: number;
  recipients: number;
  requests: number;
  p50: number;
  p99: number;
  max: number;
  failures: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

const rows: Row[] = [];
let postgres: PostgresServer | undefined;

try {
  for (const engine of engines) {
    if (engine === "postgres") postgres = postgresServer(WORK, 55433);
    const dataDir = join(WORK, `${engine}-${USERS}`);
    const env = await benchStore(engine, {
      dataDir,
      database: `bench_users_${USERS}`,
      fresh,
      postgres,
    });
    const seeded = seed(env, ["--users", `${USERS}`]);
    const server = await startServer({
      port: PORT,
      dataDir,
      env: { ...env, JOB_POLL_MS: "200" },
    });
    try {
      const { token } = await signInSuperAdmin(server);
      const headers = { authorization: token, "content-type": "application/json" };
      const list = `${server.url}${listPath("app-notifications", { sort: { createdAt: -1 } })}`;
      // Warm the list (its plan and caches) before the delivery starts; its idle median is the
      // yardstick of the figures during the delivery (on a busy machine both are slower).
      const warm: number[] = [];
      for (let i = 0; i < 21; i++) {
        const started = performance.now();
        await (await fetch(list, { headers })).arrayBuffer();
        warm.push(performance.now() - started);
      }
      const idle = percentile(
        warm.sort((a, b) => a - b),
        0.5,
      );

      const created = await fetch(`${server.url}/v1/api/app-notifications`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          titleEn: `Benchmark ${new Date().toISOString()}`,
          titleZh: "性能测试",
          bodyEn: "Delivered to every active user.",
          bodyZh: "发送给所有活跃用户。",
          audience: ["student", "staff", "public", "merchant", "rider", "agent"],
        }),
      });
      if (created.status !== 201)
        throw new Error(`create: ${created.status} ${await created.text()}`);
      const { id } = (await created.json()) as Notification;

      let done: Notification | undefined;
      const latencies: number[] = [];
      let failures = 0;
      const probe = async () => {
        while (!done) {
          const started = performance.now();
          const response = await fetch(list, { headers });
          await response.arrayBuffer();
          if (!done) latencies.push(performance.now() - started);
          if (!response.ok) failures += 1;
        }
      };
      const watch = async () => {
        const deadline = Date.now() + 600_000;
        while (Date.now() < deadline) {
          const response = await fetch(`${server.url}/v1/api/app-notifications/${id}`, { headers });
          const notification = (await response.json()) as Notification;
          if (notification.status === "sent") {
            done = notification;
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error("the delivery did not finish in 10 minutes");
      };
      await Promise.all([watch(), ...Array.from({ length: PROBES }, probe)]);
      const sorted = latencies.sort((a, b) => a - b);
      const row: Row = {
        engine,
        seconds: (Date.parse(done!.sentAt!) - Date.parse(done!.sendAt)) / 1000,
        recipients: done!.recipientCount,
        requests: sorted.length,
        p50: percentile(sorted, 0.5),
        p99: percentile(sorted, 0.99),
        max: sorted.at(-1) ?? 0,
        failures,
      };
      rows.push(row);
      console.log(
        `\n${engineName(engine)}, ${USERS.toLocaleString("en")} users (seed step ${seeded.toFixed(0)} s), ` +
          `${PROBES} list loops during the delivery`,
      );
      console.log(
        "  delivery s  recipients  idle ms  list requests   p50 ms   p99 ms   max ms  failures",
      );
      console.log(
        `  ${fmt(row.seconds, 2).padStart(10)}${row.recipients.toLocaleString("en").padStart(12)}` +
          `${fmt(idle, 1).padStart(9)}` +
          `${String(row.requests).padStart(15)}${fmt(row.p50, 1)}${fmt(row.p99, 1)}${fmt(row.max, 1)}` +
          `${String(row.failures).padStart(10)}`,
      );
    } finally {
      await server.stop({ keepData: true });
    }
  }
} finally {
  postgres?.stop();
}

console.log(`\nTargets at ${USERS.toLocaleString("en")} users:`);
const { check, summary } = targets();
for (const row of rows) {
  const name = engineName(row.engine);
  check(row.recipients > 0 && row.failures === 0, `${name}: delivered, no failed list request`);
  if (row.engine !== "postgres") continue;
  check(
    row.seconds <= TARGET_SECONDS,
    `${name}: delivery ${row.seconds.toFixed(2)} s ≤ ${TARGET_SECONDS} s`,
  );
  check(
    row.p99 <= TARGET_P99,
    `${name}: list p99 during delivery ${row.p99.toFixed(1)} ms ≤ ${TARGET_P99} ms`,
  );
}
summary();
