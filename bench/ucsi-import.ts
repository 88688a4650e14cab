/**
 * Speed of the UCSI ID import (issue 14: 50,000 rows in ≤ 30 s): a fresh store (embedded PGlite
 * in a temporary DATA_DIR, or BENCH_DATABASE_URL), N wallet users added with one set-based
 * INSERT, then one CSV of N rows (ucsi_id,type,account_number) checked by a dry run and imported
 * for real, each through the same function the route calls (parse, checks against the database,
 * one INSERT of every link with its audit entries). Prints each phase's seconds and the target.
 *
 *   npm run bench:ucsi-import [-- --rows 50000]
 *
 * Prove it at a small scale (the default, 2,000 rows) on a busy machine; the full 50,000 on a
 * quiet one.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

import { sql } from "drizzle-orm";

import { openDatabase } from "../server/db";
import { importUcsiIds } from "../server/modules/ucsi-ids/rules";

const TARGET_SECONDS = 30;

const { values } = parseArgs({ options: { rows: { type: "string", default: "2000" } } });
const rows = Number(values.rows);
if (!Number.isInteger(rows) || rows < 1 || rows > 60_000) {
  throw new Error("--rows must be a whole number from 1 to 60000");
}

const seconds = (from: number) => ((performance.now() - from) / 1000).toFixed(2);

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "ucsi-import-bench-"));
  const databaseUrl = process.env.BENCH_DATABASE_URL?.trim() || undefined;
  const database = await openDatabase({ dataDir, ...(databaseUrl ? { databaseUrl } : {}) });
  const { db } = database;
  try {
    const prefix = `B${String(Date.now() % 1_000_000).padStart(6, "0")}`;
    let start = performance.now();
    await db.execute(sql`
      insert into users (account_number, name, role, approval_status)
      select ${prefix} || lpad(i::text, 6, '0'), 'Bench Student ' || i, 'student', 'approved'
      from generate_series(1, ${rows}) i`);
    console.log(`${rows} users added in ${seconds(start)} s`);

    const lines = ["ucsi_id,type,account_number"];
    const base = 3_000_000_000 + (Date.now() % 1_000_000) * 1000;
    for (let i = 1; i <= rows; i += 1) {
      lines.push(`${base + i},student,${prefix}${String(i).padStart(6, "0")}`);
    }
    const content = Buffer.from(`${lines.join("\r\n")}\r\n`);
    console.log(`CSV: ${rows} rows, ${(content.length / 1024 / 1024).toFixed(2)} MB`);

    start = performance.now();
    const dry = await importUcsiIds(db, { content }, { dryRun: true, adminId: 1 });
    const drySeconds = seconds(start);
    console.log(`dry run: ${dry.valid} ready, ${dry.invalid} with problems in ${drySeconds} s`);

    start = performance.now();
    const real = await importUcsiIds(db, { content }, { dryRun: false, adminId: 1 });
    const realSeconds = seconds(start);
    console.log(`import: ${real.imported} linked in ${realSeconds} s`);
    console.log(
      `target: ${rows} rows ≤ ${TARGET_SECONDS} s per step (at 50,000 rows): ` +
        `dry run ${drySeconds} s, import ${realSeconds} s` +
        (databaseUrl ? " (PostgreSQL)" : " (embedded PGlite)"),
    );
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
