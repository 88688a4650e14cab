/**
 * A durable job queue in the server's own database (table `job_queue`), on the server's own pool.
 *
 * Why not pg-boss: it opens connections of its own and keeps a schema of its own. The embedded
 * store is ONE connection behind a socket server (server/db/embedded.ts) that runs one
 * transaction at a time, so a second pool polling beside the console's would queue behind it (or
 * hold it); here the queue takes turns on the same connection, one short transaction per step.
 *
 * Guarantees:
 * - a job is enqueued in the transaction that makes it needed (a notification and its delivery
 *   commit together, or neither does);
 * - of several instances polling at once, one claims a due job (FOR UPDATE SKIP LOCKED) and holds
 *   it until `locked_until` (the lease);
 * - a job runs as steps; each step is one transaction that first renews the lease (and stops if
 *   another instance has taken the job over), then does its work, and in the last step deletes
 *   the job: the work and the queue's record of it commit together;
 * - a holder killed mid-job (kill -9) loses nothing committed; its lease lapses, and whichever
 *   instance claims the job next continues from the last committed step. Steps must therefore be
 *   idempotent against their own committed progress (the delivery's unique key makes them so).
 */
import { and, eq, inArray, sql } from "drizzle-orm";

import type { Db, DbOrTx, Tx } from "../db";
import { jobQueue } from "../db/schema";
import type { JobLog } from "./scheduler";

/** What a queue's jobs do: one step per call, inside the step's transaction. */
export interface JobHandler {
  queue: string;
  /** Does one bounded piece of the job; `done` when nothing is left (the job is then deleted). */
  step(tx: Tx, payload: unknown): Promise<{ done: boolean; details?: Record<string, unknown> }>;
}

export interface JobQueueOptions {
  /** How often an idle instance looks for due jobs. */
  pollMs: number;
  /** How long a claim holds a job without a step renewing it. */
  leaseSeconds: number;
}

export interface JobQueue {
  /** Look for due jobs now (after a commit that enqueued one to run at once). */
  wake(): void;
  /** Stops claiming; waits for the step under way and gives its job back. */
  stop(): Promise<void>;
}

/** Adds a job (in the caller's transaction), or moves the job of the same key to `runAt`. */
export async function enqueueJob(
  tx: DbOrTx,
  job: { queue: string; key: string; payload: unknown; runAt: Date },
): Promise<void> {
  await tx
    .insert(jobQueue)
    .values({ queue: job.queue, key: job.key, payload: job.payload, runAt: job.runAt })
    .onConflictDoUpdate({ target: jobQueue.key, set: { runAt: job.runAt, payload: job.payload } });
}

/**
 * Drops the job of `key` unless an instance is running it right now (its row is locked by a
 * step): never waits, so it cannot deadlock with a step that locks the same records.
 */
export async function dropJob(tx: DbOrTx, key: string): Promise<void> {
  await tx.execute(sql`delete from ${jobQueue} where ${jobQueue.id} in (
    select ${jobQueue.id} from ${jobQueue} where ${jobQueue.key} = ${key}
    for update skip locked)`);
}

interface ClaimedJob {
  id: number;
  queue: string;
  payload: unknown;
  attempts: number;
}

/** Longest wait before a failed job is tried again (it doubles from 1 s per attempt). */
const MAX_RETRY_SECONDS = 300;

/**
 * Claims one due job of `queues` for `instance`: the oldest due one that no live lease holds and
 * no other instance is claiming at this moment.
 */
async function claim(
  db: Db,
  queues: readonly string[],
  instance: string,
  leaseSeconds: number,
): Promise<ClaimedJob | undefined> {
  const result = await db.execute<{
    id: string | number;
    queue: string;
    payload: unknown;
    attempts: number;
  }>(sql`update ${jobQueue}
    set locked_by = ${instance},
      locked_until = now() + ${leaseSeconds} * interval '1 second',
      attempts = attempts + 1
    where id = (
      select id from ${jobQueue}
      where ${inArray(jobQueue.queue, [...queues])} and run_at <= now()
        and (locked_until is null or locked_until < now())
      order by run_at, id
      limit 1
      for update skip locked)
    returning id, queue, payload, attempts`);
  const row = result.rows[0];
  return row && { ...row, id: Number(row.id) };
}

/**
 * Runs due jobs of the handlers' queues on this instance: looks every `pollMs` (and on `wake`),
 * claims one due job at a time and runs its steps back to back. Between two steps the pool's
 * connection is free, so the console's requests take turns with a long job.
 */
export function startJobQueue(
  db: Db,
  handlers: readonly JobHandler[],
  instance: string,
  log: JobLog,
  options: JobQueueOptions,
): JobQueue {
  const byQueue = new Map(handlers.map((handler) => [handler.queue, handler]));
  const queues = [...byQueue.keys()];
  let stopping = false;
  let draining: Promise<void> | undefined;
  let again = false;

  const lease = sql`now() + ${options.leaseSeconds} * interval '1 second'`;
  const held = (job: ClaimedJob) => and(eq(jobQueue.id, job.id), eq(jobQueue.lockedBy, instance));

  /** One step in one transaction; "lost" when another instance holds the job now. */
  const step = (job: ClaimedJob, handler: JobHandler) =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .update(jobQueue)
        .set({ lockedUntil: lease })
        .where(held(job))
        .returning({ payload: jobQueue.payload });
      if (!row) return { state: "lost" as const };
      const outcome = await handler.step(tx, row.payload);
      if (outcome.done) await tx.delete(jobQueue).where(eq(jobQueue.id, job.id));
      return { state: outcome.done ? ("done" as const) : ("more" as const), ...outcome };
    });

  const release = (job: ClaimedJob, error?: unknown) => {
    const retryIn = Math.min(2 ** Math.max(job.attempts - 1, 0), MAX_RETRY_SECONDS);
    return db
      .update(jobQueue)
      .set({
        lockedBy: null,
        lockedUntil: null,
        ...(error === undefined
          ? {}
          : {
              runAt: sql`now() + ${retryIn} * interval '1 second'`,
              lastError: String(error instanceof Error ? error.message : error).slice(0, 1000),
            }),
      })
      .where(held(job));
  };

  const run = async (job: ClaimedJob) => {
    const handler = byQueue.get(job.queue)!;
    let steps = 0;
    try {
      for (;;) {
        if (stopping) {
          await release(job);
          return;
        }
        const outcome = await step(job, handler);
        steps += 1;
        if (outcome.state === "lost") {
          log.info(
            { job: job.id, queue: job.queue, instance },
            "job taken over by another instance",
          );
          return;
        }
        if (outcome.state === "done") {
          log.info(
            {
              job: job.id,
              queue: job.queue,
              instance,
              steps,
              attempt: job.attempts,
              ...outcome.details,
            },
            "job done",
          );
          return;
        }
      }
    } catch (error) {
      log.error({ err: error, job: job.id, queue: job.queue, instance }, "job step failed");
      await release(job, error).catch(() => undefined);
    }
  };

  const drain = async () => {
    do {
      again = false;
      for (;;) {
        if (stopping) return;
        let job: ClaimedJob | undefined;
        try {
          job = await claim(db, queues, instance, options.leaseSeconds);
        } catch (error) {
          log.error({ err: error, instance }, "job queue poll failed");
          return;
        }
        if (!job) break;
        await run(job);
      }
    } while (again && !stopping);
  };

  const wake = () => {
    if (stopping) return;
    if (draining) {
      again = true;
      return;
    }
    draining = drain().finally(() => {
      draining = undefined;
    });
  };

  const timer = setInterval(wake, options.pollMs);
  timer.unref();
  wake();
  return {
    wake,
    async stop() {
      stopping = true;
      clearInterval(timer);
      await draining;
    },
  };
}
