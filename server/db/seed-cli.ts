/**
 * `npm run seed [-- --users N]`: migrates and seeds the configured store (DATA_DIR or
 * DATABASE_URL) like a first start, then, with --users, grows the users table to N rows with
 * set-based SQL (a million users take a few minutes on the embedded store). Respects the DATA_DIR
 * lock: stop the server first.
 */
import { parseArgs } from "node:util";

import { ConfigError, loadConfig } from "../config";
import { bulkSeedUsers } from "./bulk-seed";
import { openDatabase } from "./index";
import { DataDirLockedError } from "./lock";
import { seedDatabase } from "./seed";

const USAGE = "Usage: npm run seed [-- --users <total number of users, e.g. 1000000>]";

async function main() {
  const { values } = parseArgs({
    options: { users: { type: "string" }, help: { type: "boolean", short: "h" } },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const target = values.users === undefined ? undefined : Number(values.users.replace(/_/g, ""));
  if (
    target !== undefined &&
    (!Number.isSafeInteger(target) || target < 0 || target > 50_000_000)
  ) {
    throw new ConfigError(`--users must be a whole number up to 50000000. ${USAGE}`);
  }

  const config = loadConfig();
  const started = Date.now();
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    const report = await seedDatabase(database.db, config);
    console.log(
      report.demo
        ? "Seeded the demo data set."
        : "Demo data already present (or production): kept.",
    );
    if (target !== undefined) {
      let lastReport = 0;
      const added = await bulkSeedUsers(database.db, target, ({ inserted, target: goal }) => {
        if (inserted === goal || Date.now() - lastReport > 2000) {
          lastReport = Date.now();
          console.log(`  users: ${inserted.toLocaleString("en")} / ${goal.toLocaleString("en")}`);
        }
      });
      console.log(
        added > 0
          ? `Added ${added.toLocaleString("en")} users (total ${target.toLocaleString("en")}).`
          : `Already ${target.toLocaleString("en")} users or more: nothing to add.`,
      );
    }
  } finally {
    await database.close();
  }
  console.log(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

main().catch((error: unknown) => {
  if (error instanceof DataDirLockedError || error instanceof ConfigError) {
    console.error(error.message);
  } else if (
    error instanceof TypeError &&
    (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")
  ) {
    console.error(`${error.message}\n${USAGE}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
