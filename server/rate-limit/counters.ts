import { and, eq, lt, sql } from "drizzle-orm";

import type { Db } from "../db";
import { rateLimitCounters } from "../db/schema";
import { createSlidingLog } from "./sliding-log";
import { storedKey } from "./stored-key";

/** Where a key stands after a hit: hits in its window, and when that window ends. */
export interface Count {
  hits: number;
  /** The window's end. */
  resetsAt: Date;
  /** Milliseconds until then, by the database's clock (every instance reads the same one). */
  ttlMs: number;
}

const { hits, resetsAt } = rateLimitCounters;
const windowEnd = sql`date_trunc('milliseconds', now()) + ${sql.placeholder("windowMs")} * interval '1 millisecond'`;
const expired = sql`${resetsAt} <= now()`;

/**
 * Counts one hit against `key` in a fixed window of `windowMs` that starts with the key's first
 * hit, in one statement: concurrent hits from any number of server instances each get their own
 * count. A window that is over starts again at 1. `sliding` is the limits whose every window-long
 * span must hold at most the limit, which a fixed window cannot promise (see ./sliding-log.ts).
 */
export function createCounters(db: Db) {
  const hit = db
    .insert(rateLimitCounters)
    .values({ key: sql.placeholder("key"), hits: 1, resetsAt: windowEnd })
    .onConflictDoUpdate({
      target: rateLimitCounters.key,
      set: {
        hits: sql`case when ${expired} then 1 else ${hits} + 1 end`,
        resetsAt: sql`case when ${expired} then excluded.resets_at else ${resetsAt} end`,
      },
    })
    .returning({
      hits,
      resetsAt,
      ttlMs: sql<number>`greatest(0, ceil(extract(epoch from ${resetsAt} - now()) * 1000))::integer`,
    })
    .prepare("rate_limit_hit");

  const remaining = db
    .select({
      ms: sql<number>`ceil(extract(epoch from ${resetsAt} - now()) * 1000)::integer`,
    })
    .from(rateLimitCounters)
    .where(and(eq(rateLimitCounters.key, sql.placeholder("key")), sql`${resetsAt} > now()`))
    .prepare("rate_limit_remaining");

  return {
    /** Milliseconds until `key`'s window ends (0: none is open), without counting a hit. */
    async remainingMs(key: string): Promise<number> {
      const [row] = await remaining.execute({ key: storedKey(key) });
      return row ? Math.max(0, row.ms) : 0;
    },
    async hit(key: string, windowMs: number): Promise<Count> {
      const [row] = await hit.execute({ key: storedKey(key), windowMs });
      if (!row) throw new Error("the rate-limit upsert returned no row");
      return row;
    },
    sliding: createSlidingLog(db),
  };
}

export type Counters = ReturnType<typeof createCounters>;

/** Deletes the counters whose window is over; returns how many. */
export async function pruneCounters(db: Db): Promise<number> {
  const result = await db.delete(rateLimitCounters).where(lt(resetsAt, sql`now()`));
  return result.rowCount ?? 0;
}
