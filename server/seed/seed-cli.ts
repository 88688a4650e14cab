/**
 * `npm run seed [-- --users N] [--businesses N] [--ledger N]`: migrates and seeds the configured
 * store (DATA_DIR or DATABASE_URL) like a first start, then grows, with set-based SQL, the users
 * table to --users rows (a million users take a few minutes on the embedded store), the merchants
 * to --businesses and the wallet ledger to --ledger rows (over the wallets without any, with their
 * balances; the ledger's roll-ups rebuilt after). --rebuild-summary rebuilds the roll-ups (the
 * merchant summary, top-ups and active users by day) from the ledger (after a change of
 * BUSINESS_TIMEZONE). Respects the DATA_DIR lock: stop the server first.
 */
import { parseArgs } from "node:util";

import { setBusinessTimeZone } from "../business-day";
import { ConfigError, loadConfig } from "../config";
import {
  bulkSeedBusinesses,
  bulkSeedLedger,
  bulkSeedUsers,
  type BulkSeedProgress,
} from "./bulk-seed";
import { openDatabase } from "../db";
import { rebuildLedgerRollups } from "../db/ledger-rollups";
import { DataDirLockedError } from "../db/lock";
import { seedDatabase } from "./seed";

const USAGE =
  "Usage: npm run seed [-- --users <total number of users, e.g. 1000000>] " +
  "[--businesses <total merchants>] [--ledger <total ledger rows>] [--rebuild-summary]";

/** A whole number option up to `max`, or undefined when not given. */
function total(name: string, text: string | undefined, max: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text.replace(/_/g, ""));
  if (!Number.isSafeInteger(value) || value < 0 || value > max) {
    throw new ConfigError(`--${name} must be a whole number up to ${max}. ${USAGE}`);
  }
  return value;
}

/** Prints a bulk seed's progress at most every two seconds, and when it is done. */
function progress(what: string) {
  let lastReport = 0;
  return ({ inserted, target: goal }: BulkSeedProgress) => {
    if (inserted === goal || Date.now() - lastReport > 2000) {
      lastReport = Date.now();
      console.log(`  ${what}: ${inserted.toLocaleString("en")} / ${goal.toLocaleString("en")}`);
    }
  };
}

/** What a bulk seed did, in a line. */
function outcome(what: string, added: number, target: number) {
  console.log(
    added > 0
      ? `Added ${added.toLocaleString("en")} ${what} (total ${target.toLocaleString("en")}).`
      : `Already ${target.toLocaleString("en")} ${what} or more: nothing to add.`,
  );
}

async function main() {
  const { values } = parseArgs({
    options: {
      users: { type: "string" },
      businesses: { type: "string" },
      ledger: { type: "string" },
      "rebuild-summary": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const targets = {
    users: total("users", values.users, 50_000_000),
    businesses: total("businesses", values.businesses, 1_000_000),
    ledger: total("ledger", values.ledger, 1_000_000_000),
  };

  const config = loadConfig();
  setBusinessTimeZone(config.businessTimeZone);
  const started = Date.now();
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    const report = await seedDatabase(database.db, config);
    console.log(
      report.demo
        ? "Seeded the demo data set."
        : "Demo data already present (or production): kept.",
    );
    if (targets.users !== undefined) {
      const added = await bulkSeedUsers(database.db, targets.users, progress("users"));
      outcome("users", added, targets.users);
    }
    if (targets.businesses !== undefined) {
      const added = await bulkSeedBusinesses(database.db, targets.businesses);
      outcome("merchants", added, targets.businesses);
    }
    if (targets.ledger !== undefined) {
      const added = await bulkSeedLedger(database.db, targets.ledger, progress("ledger rows"));
      outcome("ledger rows", added, targets.ledger);
    }
    if (values["rebuild-summary"]) {
      await rebuildLedgerRollups(database.db);
      console.log(
        `Rebuilt the ledger's roll-ups (merchant summary, top-ups, active users) by business day in ${config.businessTimeZone}.`,
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
