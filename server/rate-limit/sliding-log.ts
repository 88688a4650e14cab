import { and, eq, lte, sql } from "drizzle-orm";

import type { Db } from "../db";
import { rateLimitLogs } from "../db/schema";
import { storedKey } from "./stored-key";

/** A hit `take` counted (`at`, to give it back by), or one it refused, and for how long. */
export type Take =
  | { taken: true; at: Date; /** Hits in the window, this one included. */ count: number }
  | { taken: false; retryAfterMs: number };

const { hits, expiresAt } = rateLimitLogs;
/** The database's time (every instance reads the same clock), in whole milliseconds: a JS Date. */
const instant = sql`date_trunc('milliseconds', now())`;
const window = sql`${sql.placeholder("windowMs")} * interval '1 millisecond'`;
const live = sql`array(select hit from unnest(${hits}) hit where hit > ${instant} - ${window})`;

/**
 * Sliding-window limits: each key keeps the times of its counted hits, and a hit is counted only
 * while fewer than the limit fall in the last window, so any window-long span holds at most the
 * limit (a fixed window lets twice the limit through across its reset; so would a token bucket).
 * Checking and counting is one statement on the key's row, which it locks: concurrent hits from
 * any number of server instances are counted one after another, never both into one last slot.
 */
export function createSlidingLog(db: Db) {
  // No row is returned when the limit is reached: the row is left as it was.
  const take = db
    .insert(rateLimitLogs)
    .values({
      key: sql.placeholder("key"),
      hits: sql`array[${instant}]`,
      expiresAt: sql`${instant} + ${window}`,
    })
    .onConflictDoUpdate({
      target: rateLimitLogs.key,
      set: {
        hits: sql`${live} || excluded.hits`,
        expiresAt: sql`greatest(${expiresAt}, excluded.expires_at)`,
      },
      setWhere: sql`cardinality(${live}) < ${sql.placeholder("limit")}`,
    })
    .returning({
      at: sql`${instant}`.mapWith(expiresAt),
      count: sql<number>`cardinality(${hits})`.mapWith(Number),
    })
    .prepare("rate_limit_take");

  // Below the limit again once all but the newest limit - 1 hits have left the window: when the
  // limit-th newest does.
  const wait = db
    .select({
      ms: sql<number>`ceil(extract(epoch from hit + ${window} - ${instant}) * 1000)::integer`,
    })
    .from(sql`${rateLimitLogs}, unnest(${hits}) hit`)
    .where(and(eq(rateLimitLogs.key, sql.placeholder("key")), sql`hit > ${instant} - ${window}`))
    .orderBy(sql`hit desc`)
    .offset(sql.placeholder("newer"))
    .limit(1)
    .prepare("rate_limit_wait");

  const position = sql`array_position(${hits}, ${sql.placeholder("at")}::timestamptz)`;
  const giveBack = db
    .update(rateLimitLogs)
    .set({ hits: sql`${hits}[:${position} - 1] || ${hits}[${position} + 1:]` })
    .where(and(eq(rateLimitLogs.key, sql.placeholder("key")), sql`${position} is not null`))
    .prepare("rate_limit_give_back");

  return {
    /** Counts a hit against `key` unless `limit` hits already fall in the last `windowMs`. */
    async take(key: string, limit: number, windowMs: number): Promise<Take> {
      const values = { key: storedKey(key), limit, windowMs };
      const [taken] = await take.execute(values);
      if (taken) return { taken: true, at: taken.at, count: taken.count };
      const [next] = await wait.execute({ ...values, newer: limit - 1 });
      return { taken: false, retryAfterMs: Math.max(0, next?.ms ?? 0) };
    },
    /** Forgets every hit of `key`. */
    async clear(key: string): Promise<void> {
      await db.delete(rateLimitLogs).where(eq(rateLimitLogs.key, storedKey(key)));
    },
    /** Takes back the hit counted `at` (one of them, if several were counted at that instant). */
    async giveBack(key: string, at: Date): Promise<void> {
      await giveBack.execute({ key: storedKey(key), at });
    },
  };
}

/** Deletes the logs none of whose hits is in its window any more; returns how many. */
export async function pruneSlidingLogs(db: Db): Promise<number> {
  const result = await db.delete(rateLimitLogs).where(lte(expiresAt, sql`now()`));
  return result.rowCount ?? 0;
}
