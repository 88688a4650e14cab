/**
 * `npm start`: load the configuration, open (migrate, seed) the database, serve the API and the
 * built console, start the scheduled jobs, print the demo logins. A DATA_DIR held by another live
 * process is refused with a clear message and exit code 1. SIGINT/SIGTERM drain the instance
 * (shutdown below), then close the pool, the embedded database and the lock, in that order.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";

import { buildApp, type App } from "./app";
import { ConfigError, loadConfig, type Config } from "./config";
import { openDatabase, type Database } from "./db";
import { DataDirLockedError } from "./db/lock";
import { changeRequestExpiryJob } from "./jobs/change-request-expiry";
import { closeDaysJob } from "./jobs/close-days";
import { chainVerificationJob } from "./jobs/chain-verification";
import { reconcileJob } from "./jobs/reconcile";
import { dormantAdministratorsJob } from "./jobs/dormant-administrators";
import { embeddedVacuumJob } from "./jobs/embedded-vacuum";
import { housekeepingJob } from "./jobs/housekeeping";
import { startJobQueue } from "./jobs/queue";
import { startScheduledJobs } from "./jobs/scheduler";
import { demoTotpSecret, seedDatabase } from "./seed/seed";
import { deliveryJob } from "./modules/app-notifications";
import { importDocumentsFromDisk } from "./uploads/storage";

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** Closes the server, waiting at most `ms` for the requests in flight before ending them. */
async function closeWithin(app: App, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), ms)));
  const closed = app.close().then(() => "closed" as const);
  if ((await Promise.race([closed, late])) === "late") {
    app.log.warn(
      { ms },
      "requests still in flight at the drain's end: their connections are closed",
    );
    app.server.closeAllConnections();
    await closed;
  }
  clearTimeout(timer);
}

function consoleUrl(config: Config) {
  const host = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;
  return `http://${host.includes(":") ? `[${host}]` : host}:${config.port}`;
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(`Configuration error: ${error.message}`);
    throw error;
  }

  let app: App | undefined;
  let database: Database | undefined;
  let jobs: ReturnType<typeof startScheduledJobs> | undefined;
  let queue: ReturnType<typeof startJobQueue> | undefined;
  let closing: Promise<void> | undefined;
  /**
   * Stops the instance (docs/fleet.md): unready first, still serving for DRAIN_NOTICE_MS while
   * the balancer notices; then new requests are refused (503 SERVER_DRAINING), the jobs hand back
   * their leases, and the requests in flight get DRAIN_TIMEOUT_MS to finish before their
   * connections are closed; the database last.
   */
  const shutdown = (code: number) => {
    closing ??= (async () => {
      try {
        if (app && code === 0) {
          app.readiness.drain();
          await new Promise((resolve) => setTimeout(resolve, config.drain.noticeMs));
        }
        app?.readiness.refuse();
        await Promise.all([
          jobs?.stop(),
          queue?.stop(),
          app && closeWithin(app, config.drain.timeoutMs),
        ]);
      } finally {
        await database?.close();
      }
    })()
      .catch((error: unknown) => console.error("Error while shutting down:", error))
      .finally(() => process.exit(code));
    return closing;
  };

  try {
    database = await openDatabase({
      dataDir: config.dataDir,
      databaseUrl: config.databaseUrl,
      poolMax: config.databasePoolMax,
      statementTimeoutMs: config.statementTimeoutMs,
      onError: (error, fatal) => {
        if (app) app.log[fatal ? "fatal" : "warn"]({ err: error }, "database connection problem");
        else console.error(error);
        if (fatal) void shutdown(1);
      },
    });
  } catch (error) {
    if (error instanceof DataDirLockedError) fail(error.message);
    throw error;
  }

  try {
    const seeding = performance.now();
    const seeded = await seedDatabase(database.db, config);
    if (seeded.demo) {
      console.log(`Demo campus seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
    }
    const imported = await importDocumentsFromDisk(database.db, config.dataDir);
    app = await buildApp({ config, database, distDir: config.distDir });
    if (imported > 0)
      app.log.info({ imported }, "rider documents moved from DATA_DIR into the database");
    await app.listen({ port: config.port, host: config.host });
    // The instance's name in the jobs table and the logs: which of several servers ran a job.
    const instance = `${hostname()}/${process.pid}/${randomBytes(3).toString("hex")}`;
    jobs = startScheduledJobs(
      database.db,
      [
        housekeepingJob(config.housekeepingIntervalSeconds),
        closeDaysJob(),
        reconcileJob(),
        changeRequestExpiryJob(),
        dormantAdministratorsJob(config.adminDormantDays),
        chainVerificationJob(config.integritySigningKey, config.databaseUrl ? 2 : 1),
        ...(database.kind === "embedded" ? [embeddedVacuumJob()] : []),
      ],
      instance,
      app.log,
    );
    // Due notification deliveries (and any later durable job), on whichever instance claims them.
    queue = startJobQueue(
      database.db,
      [
        deliveryJob({
          batchSize: config.notificationBatchSize,
          stepMs: config.notificationStepMs,
        }),
      ],
      instance,
      app.log,
      { pollMs: config.jobPollMs, leaseSeconds: config.jobLeaseSeconds },
    );
  } catch (error) {
    await database.close().catch(() => undefined);
    if (error instanceof ConfigError) fail(`Configuration error: ${error.message}`);
    throw error;
  }

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (closing) process.exit(1); // a second signal: stop waiting
      void shutdown(0);
    });
  }

  if (database.kind === "postgres" && config.jwtSecretIsLocal) {
    app.log.warn(
      "JWT_SECRET is unset: this instance signs with DATA_DIR/jwt-secret, so other instances on this database refuse its tokens. Give every instance the same JWT_SECRET.",
    );
  }
  if (database.kind === "postgres" && config.secondFactorKeyIsLocal) {
    app.log.warn(
      "SECOND_FACTOR_KEY is unset: this instance seals authenticator-app secrets with DATA_DIR/second-factor-key, which other instances on this database cannot open. Give every instance the same SECOND_FACTOR_KEY.",
    );
  }

  const store =
    database.kind === "embedded"
      ? `embedded PostgreSQL in ${config.dataDir}`
      : "PostgreSQL (DATABASE_URL)";
  const url = consoleUrl(config);
  const twoStep = await demoTotpSecret(database.db, config);
  // The console's sign-in first: the site's root is the public calculator, with no way to it.
  console.log(
    `\nUCSI Wallet console: ${url}/login  (the public calculator: ${url}/; API ${url}/v1, docs /v1/docs; data: ${store})`,
  );
  if (config.demoAccounts.length > 0) {
    console.log("Demo logins:");
    for (const account of config.demoAccounts) {
      console.log(`${account.role}: ${account.email} / ${account.password}`);
    }
    if (twoStep) {
      console.log(
        `${twoStep.email} also needs a code from an authenticator app: add the secret ` +
          `${twoStep.secret} to one (or open ${twoStep.uri})`,
      );
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
