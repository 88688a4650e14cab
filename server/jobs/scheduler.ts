import { sql } from "drizzle-orm";

import type { Db } from "../db";
import { scheduledJobs } from "../db/schema";

/** Work a server does on a schedule. It must be safe to run again (a run may be cut short). */
export interface ScheduledJob {
  name: string;
  everySeconds: number;
  /** Does the work; what it returns is logged with the run. */
  run(db: Db): Promise<Record<string, unknown>>;
}

export interface JobLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** Checks per interval: a due job starts at most a quarter of its interval late (or a minute). */
const CHECKS_PER_INTERVAL = 4;
const MAX_CHECK_MS = 60_000;

/**
 * Claims the job's due run for `instance`, in one statement: the row's `next_run_at` moves one
 * interval on, so of several instances checking at once exactly one gets the row back (the others
 * wait for its lock, then find the run no longer due). Returns the run's number, or undefined.
 */
async function claim(db: Db, job: ScheduledJob, instance: string): Promise<number | undefined> {
  const next = sql`now() + ${job.everySeconds} * interval '1 second'`;
  const [row] = await db
    .insert(scheduledJobs)
    .values({
      name: job.name,
      nextRunAt: next,
      lastRunAt: sql`now()`,
      lastRunBy: instance,
      runs: 1,
    })
    .onConflictDoUpdate({
      target: scheduledJobs.name,
      set: {
        nextRunAt: next,
        lastRunAt: sql`now()`,
        lastRunBy: instance,
        runs: sql`${scheduledJobs.runs} + 1`,
      },
      setWhere: sql`${scheduledJobs.nextRunAt} <= now()`,
    })
    .returning({ runs: scheduledJobs.runs });
  return row?.runs;
}

/**
 * Runs each job every `everySeconds` across all server instances on the database: each instance
 * checks a few times per interval, and the one that claims a due run does it (the first check
 * is at start). `stop` ends the checks and waits for a run under way.
 */
export function startScheduledJobs(
  db: Db,
  jobs: readonly ScheduledJob[],
  instance: string,
  log: JobLog,
): { stop(): Promise<void> } {
  let running = Promise.resolve();
  const timers = jobs.map((job) => {
    const check = () => {
      running = running.then(async () => {
        try {
          const run = await claim(db, job, instance);
          if (run === undefined) return;
          const result = await job.run(db);
          log.info({ job: job.name, run, instance, ...result }, "scheduled job ran");
        } catch (error) {
          log.error({ err: error, job: job.name, instance }, "scheduled job failed");
        }
      });
    };
    check();
    const everyMs = Math.min((job.everySeconds * 1000) / CHECKS_PER_INTERVAL, MAX_CHECK_MS);
    return setInterval(check, everyMs).unref();
  });
  return {
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await running;
    },
  };
}
