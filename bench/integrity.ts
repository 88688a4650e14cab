/**
 * The tamper-evident chains' cost (issue 34, docs/integrity.md), on PostgreSQL:
 *
 * 1. the bench ledger seeded with its chains (bulk-seed.ts computes each wallet's chain in the
 *    insert, chain_fold over ledger_digest): seconds for --rows rows over --wallets wallets;
 * 2. a counter top-up with its audit entry, as the API runs it (topUpWallet and recordAudit in one
 *    transaction), --top-ups times on one connection: the server's CPU (this process and the
 *    PostgreSQL backend) per top-up, and the part of it the chaining adds: the same top-up's
 *    hashing (the wallet's new head, the audit shard's new head) run on its own, less the same
 *    statements without the hashing. Target: ≤ 10% more CPU;
 * 3. a full verification (verifyChains: every audit shard and every wallet, recomputed): seconds
 *    and rows a second. Target: 10,000,000 rows ≤ 60 s.
 *
 * 4. two processes (the server's own code paths: recordAudit, topUpWallet, each with its own pool
 *    of 5 connections) write --writes audited changes at once, 1 in 10 with a top-up; one is
 *    killed (SIGKILL) midway and started again to finish; then every chain must verify.
 *
 *   npm run bench:integrity [-- --rows 10000000] [--wallets 100000] [--top-ups 2000]
 *                           [--writes 10000] [--fresh]
 *
 * PostgreSQL: BENCH_DATABASE_URL, else a throwaway cluster (bench/support/postgres.ts) on port
 * 55436. The seeded database (integrity_<rows>) is kept and reused unless --fresh.
 */
import { spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

import { sql } from "drizzle-orm";

import { recordAudit } from "../server/audit";
import { openDatabase } from "../server/db";
import { executePrepared } from "../server/db/prepared";
import { signerOf } from "../server/integrity/signing";
import { verifyChains } from "../server/integrity/verify";
import { bulkSeedBusinesses, bulkSeedLedger, bulkSeedUsers } from "../server/seed/bulk-seed";
import { topUpWallet } from "../server/services/ledger";
import { cpuSeconds } from "./support/processes";
import { postgresDatabase, postgresServer } from "./support/postgres";

const { values: args } = parseArgs({
  options: {
    rows: { type: "string", default: "1000000" },
    wallets: { type: "string", default: "10000" },
    "top-ups": { type: "string", default: "2000" },
    writes: { type: "string", default: "10000" },
    worker: { type: "string" },
    fresh: { type: "boolean", default: false },
  },
});
const ROWS = Number(args.rows.replace(/_/g, ""));
const WALLETS = Number(args.wallets.replace(/_/g, ""));
const TOP_UPS = Number(args["top-ups"].replace(/_/g, ""));
const WRITES = Number(args.writes.replace(/_/g, ""));
const work = join(tmpdir(), "campus-wallet-bench", "integrity");
mkdirSync(work, { recursive: true });

if (args.worker) {
  // A writer process: `--worker <database url>:<first>:<count>`, 20 writes at a time.
  const [url, first, count] = args.worker.split("|");
  const database = await openDatabase({ dataDir: work, databaseUrl: url!, poolMax: 5 });
  const holders = (
    await database.db.execute<{ id: number }>(sql`
      select user_id as id from wallets where status = 'active' order by user_id limit 500`)
  ).rows.map((row) => row.id);
  let next = Number(first);
  const end = Number(first) + Number(count);
  const writer = async () => {
    while (next < end) {
      const i = next++;
      await database.db.transaction(async (tx) => {
        if (i % 10 === 0) {
          await topUpWallet(
            tx,
            { userId: holders[i % holders.length]! },
            { amountSen: 100, channel: "counter" },
          );
        }
        await recordAudit(tx, {
          adminId: null,
          action: "bench.write",
          targetTable: "users",
          targetId: i,
          after: { i, at: new Date().toISOString() },
        });
      });
    }
  };
  await Promise.all(Array.from({ length: 20 }, writer));
  await database.close();
  process.exit(0);
}

const server = postgresServer(work, 55436);
try {
  const url = await postgresDatabase(server.url, `integrity_${ROWS}`, args.fresh);
  const database = await openDatabase({ dataDir: work, databaseUrl: url, poolMax: 3 });
  const { db } = database;
  try {
    // 1. The seed, chained in its insert.
    let started = performance.now();
    await bulkSeedUsers(db, WALLETS);
    await bulkSeedBusinesses(db, 50);
    const seeded = await bulkSeedLedger(db, ROWS);
    const seedSeconds = (performance.now() - started) / 1000;
    const [count] = (
      await db.execute<{ rows: number }>(sql`select count(*)::int as rows from wallet_transactions`)
    ).rows;
    console.log(
      seeded > 0
        ? `seed: ${seeded.toLocaleString()} ledger rows chained in ${seedSeconds.toFixed(1)} s (${Math.round(seeded / seedSeconds).toLocaleString()} rows/s, users and businesses included)`
        : `seed: reused (${count!.rows.toLocaleString()} ledger rows)`,
    );

    // 2. A counter top-up's CPU, and the chaining's part of it.
    // A policy version that leaves room for thousands of top-ups (the seed's is a campus's).
    await db.execute(sql`insert into wallet_policies (max_balance_sen, min_top_up_sen,
        max_top_up_sen, daily_top_up_limit_sen, daily_payment_limit_sen, dormancy_days)
      values (1000000000, 100, 100000, 1000000000, 1000000000, 365)`);
    const holders = (
      await db.execute<{ id: number }>(sql`
        select w.user_id as id from wallets w where w.status = 'active' order by w.user_id limit 200`)
    ).rows.map((row) => row.id);
    // The pool's backends (a sequential load uses one of them; all are counted).
    await Promise.all([1, 2, 3].map(() => db.execute(sql`select pg_sleep(0.05)`)));
    const backends = (
      await db.execute<{ pid: number }>(sql`
        select pid from pg_stat_activity where datname = current_database()`)
    ).rows.map((row) => row.pid);
    const cpu = () => {
      const node = process.cpuUsage();
      return (node.user + node.system) / 1e6 + cpuSeconds(backends);
    };
    const topUp = (i: number) =>
      db.transaction(async (tx) => {
        const row = await topUpWallet(
          tx,
          { userId: holders[i % holders.length]! },
          { amountSen: 100, channel: "counter", adminId: null },
        );
        await recordAudit(tx, {
          adminId: null,
          action: "top_up.create",
          targetTable: "wallet_transactions",
          targetId: row.id,
          after: { amountSen: 100, channel: "counter", reference: row.reference },
        });
      });
    for (let i = 0; i < 200; i += 1) await topUp(i); // warm up: prepared statements, caches
    let before = cpu();
    started = performance.now();
    for (let i = 0; i < TOP_UPS; i += 1) await topUp(i);
    const topUpCpu = (cpu() - before) / TOP_UPS;
    const topUpMs = (performance.now() - started) / TOP_UPS;

    // The hashing alone: the two heads computed as the top-up computes them, rolled back.
    const chaining = (hashing: boolean) =>
      db
        .transaction(async (tx) => {
          for (let i = 0; i < TOP_UPS; i += 1) {
            const userId = holders[i % holders.length]!;
            await executePrepared(
              tx,
              hashing
                ? sql`select sha256(coalesce(w.ledger_hash, '\\x00'::bytea) || ledger_digest(
                        ${i}::bigint, w.user_id, 'top_up', 100::bigint, w.balance_sen, 'counter',
                        null::int, null::int, ${`TU20261128BENCH${i}`}::text, null::int,
                        null::bigint, null::text, null::int, ${`tu20261128bench${i}`}::text,
                        now())) from wallets w where w.user_id = ${userId}`
                : sql`select coalesce(w.ledger_hash, '\\x00'::bytea) from wallets w
                      where w.user_id = ${userId}`,
            );
            await executePrepared(
              tx,
              hashing
                ? sql`update chain_heads set seq = seq + 1, hash = sha256(hash || audit_digest(
                        ${i}::bigint, null::int, 'top_up.create', 'wallet_transactions',
                        ${String(i)}::text, null::text, null::jsonb,
                        ${JSON.stringify({ amountSen: 100, channel: "counter", reference: `TU${i}` })}::jsonb,
                        null::int, now())) where chain = 'audit' and shard = 63`
                : sql`update chain_heads set seq = seq + 1 where chain = 'audit' and shard = 63`,
            );
          }
          throw new Error("rollback");
        })
        .catch(() => undefined);
    await chaining(true);
    await chaining(false);
    before = cpu();
    await chaining(true);
    const withHashing = (cpu() - before) / TOP_UPS;
    before = cpu();
    await chaining(false);
    const withoutHashing = (cpu() - before) / TOP_UPS;
    const added = Math.max(0, withHashing - withoutHashing);
    console.log(
      `top-up (ledger row + audit entry, one connection): ${topUpMs.toFixed(2)} ms, ` +
        `${(topUpCpu * 1000).toFixed(3)} ms CPU (server process + backend); ` +
        `the chaining's hashing ${(added * 1000).toFixed(3)} ms CPU: ` +
        `+${((added / Math.max(topUpCpu - added, 1e-9)) * 100).toFixed(1)}% (target ≤ 10%)`,
    );

    // 3. A full verification.
    const key = generateKeyPairSync("ed25519")
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString();
    started = performance.now();
    const result = await verifyChains(db, signerOf(key), null, { parts: 2 });
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `verification: ${result.status}, ${result.rowsChecked.toLocaleString()} rows in ` +
        `${seconds.toFixed(1)} s (${Math.round(result.rowsChecked / seconds).toLocaleString()} rows/s; ` +
        `10M rows at this rate: ${((10_000_000 / result.rowsChecked) * seconds).toFixed(0)} s, target ≤ 60 s)`,
    );
    if (result.status !== "ok") console.log(JSON.stringify(result.breaks.slice(0, 5), null, 2));

    // 4. Two processes at once, one killed midway and started again.
    const spawnWriter = (first: number, count: number) =>
      spawn(
        process.execPath,
        [...process.execArgv, process.argv[1]!, "--worker", `${url}|${first}|${count}`],
        {
          stdio: "inherit",
        },
      );
    const exited = (child: ReturnType<typeof spawn>) =>
      new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const half = Math.floor(WRITES / 2);
    started = performance.now();
    const one = spawnWriter(0, half);
    const other = spawnWriter(half, WRITES - half);
    const [writtenBefore] = (
      await db.execute<{ n: number }>(
        sql`select count(*)::int as n from audit_log where action = 'bench.write'`,
      )
    ).rows;
    // Killed once it has written a while (or at 3 s at the latest).
    for (let waited = 0; waited < 3_000; waited += 100) {
      const [now] = (
        await db.execute<{ n: number }>(
          sql`select count(*)::int as n from audit_log where action = 'bench.write'`,
        )
      ).rows;
      if (now!.n - writtenBefore!.n >= WRITES / 4) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    one.kill("SIGKILL");
    await exited(one);
    const [done] = (
      await db.execute<{ n: number }>(sql`
        select count(*)::int as n from audit_log
        where action = 'bench.write' and (after->>'i')::int < ${half}`)
    ).rows;
    // The killed writer's in-flight transactions rolled back; it starts again from where it was.
    const again = spawnWriter(done!.n, half - done!.n);
    const codes = await Promise.all([exited(other), exited(again)]);
    const writeSeconds = (performance.now() - started) / 1000;
    const afterKill = await verifyChains(db, signerOf(key), null, { parts: 2 });
    const [shards] = (
      await db.execute<{ n: number }>(sql`
        select count(distinct chain_shard)::int as n from audit_log where action = 'bench.write'`)
    ).rows;
    console.log(
      `two writers, ${WRITES.toLocaleString()} audited writes (1 in 10 with a top-up), one killed (SIGKILL) ` +
        `after ${done!.n.toLocaleString()} of its ${half.toLocaleString()} and restarted: ${writeSeconds.toFixed(1)} s, ` +
        `exit codes ${codes.join(", ")}, ${shards!.n} shards used; verification: ${afterKill.status}` +
        (afterKill.status === "ok" ? "" : ` ${JSON.stringify(afterKill.breaks.slice(0, 5))}`),
    );
  } finally {
    await database.close();
  }
} finally {
  server.stop();
}
