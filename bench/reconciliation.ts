/**
 * Speed of the daily reconciliation (issue 34): one business day of the ledger bench (10,000,000
 * rows over 100,000 wallets and 500 merchants, the stores of `npm run bench:ledger`, seeded here
 * when missing) reconciled by the real checks (server/services/reconciliation.ts), on PostgreSQL
 * and on the embedded PGlite. The day before is reconciled first, untimed but printed (a first
 * day also sums the ledger before it for its previous close); then yesterday, timed, `--repeat`
 * times. Targets: ≤ 5 s on PostgreSQL, ≤ 20 s embedded. Prints each check's result and figures.
 *
 *   npm run bench:reconciliation [-- --engine pglite|postgres|both] [--rows 10000000]
 *                                [--wallets 100000] [--repeat 3] [--fresh]
 *
 * PostgreSQL: BENCH_DATABASE_URL, else the throwaway cluster of bench/support/postgres.ts on port
 * 55434, stopped at the end.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";

import { addDays, businessDayOf } from "../server/business-day";
import { openDatabase } from "../server/db";
import { reconcileDay } from "../server/services/reconciliation";
import { benchArgs, benchStore, engineName, seed, type Engine } from "./support/load";
import { postgresServer, type PostgresServer } from "./support/postgres";

const {
  values: args,
  engines,
  fresh,
} = benchArgs(
  {
    rows: { type: "string", default: "10000000" },
    wallets: { type: "string", default: "100000" },
    repeat: { type: "string", default: "3" },
  },
  ["postgres", "pglite"],
);
const ROWS = Number(args.rows.replace(/_/g, ""));
const WALLETS = Number(args.wallets.replace(/_/g, ""));
const REPEAT = Number(args.repeat);
const BUSINESSES = 500;
/** The ledger bench's stores, shared with bench/ledger-scale.ts. */
const WORK = join(tmpdir(), "campus-wallet-bench", "ledger");
const TARGET_SECONDS: Record<Engine, number> = { postgres: 5, pglite: 20 };

const results: Array<{ engine: Engine; first: number; runs: number[] }> = [];
let postgres: PostgresServer | undefined;

try {
  for (const engine of engines) {
    if (engine === "postgres") postgres = postgresServer(WORK, 55434);
    const size = WALLETS === 100_000 ? `${ROWS}` : `${ROWS}-${WALLETS}`;
    const dataDir = join(WORK, `${engine}-${size}`);
    const database = `bench_ledger_${size.replace("-", "_")}`;
    const env = await benchStore(engine, { dataDir, database, fresh, postgres });
    const seconds = seed(env, [
      "--users",
      `${WALLETS}`,
      "--businesses",
      `${BUSINESSES}`,
      "--ledger",
      `${ROWS}`,
    ]);
    console.log(`${engineName(engine)}: seed step ${seconds.toFixed(0)} s`);
    const store = await openDatabase({
      dataDir: env.DATA_DIR!,
      databaseUrl: env.DATABASE_URL,
      migrate: true,
    });
    try {
      const yesterday = addDays(businessDayOf(new Date()), -1);
      let started = performance.now();
      const before = await reconcileDay(store.db, addDays(yesterday, -1), { adminId: null });
      const first = (performance.now() - started) / 1000;
      console.log(
        `  ${addDays(yesterday, -1)} (previous close from ` +
          `${String(before.result.checks[1]!.figures.previousCloseFrom)}): ${first.toFixed(2)} s, ` +
          `${before.result.status}`,
      );
      const runs: number[] = [];
      for (let i = 0; i < REPEAT; i++) {
        started = performance.now();
        const { result } = await reconcileDay(store.db, yesterday, { adminId: null });
        runs.push((performance.now() - started) / 1000);
        if (i === 0) {
          console.log(
            `  ${yesterday}: ${result.status}, closing float ${result.closingFloatSen} sen`,
          );
          for (const check of result.checks) {
            console.log(
              `    ${check.name}: ${check.passed ? "passed" : `FAILED (${check.differenceCount})`} ` +
                JSON.stringify(check.figures),
            );
          }
        }
      }
      results.push({ engine, first, runs });
    } finally {
      await store.close();
    }
  }
} finally {
  postgres?.stop();
}

console.log("\nOne business day reconciled (seconds; target in brackets):");
for (const { engine, first, runs } of results) {
  const best = Math.min(...runs);
  const worst = Math.max(...runs);
  const target = TARGET_SECONDS[engine];
  console.log(
    `  ${engineName(engine)}: best ${best.toFixed(2)}, worst ${worst.toFixed(2)} ` +
      `(≤ ${target}) ${worst <= target ? "ok" : "OVER"}; the day before ${first.toFixed(2)}`,
  );
}
