import { createHash } from "node:crypto";

import { and, eq, gt, lt, sql } from "drizzle-orm";

import type { Db } from "../db";
import { rateLimitCounters } from "../db/schema";

/** Where a key stands after a hit: hits in its window, and when that window ends. */
export interface Count {
  hits: number;
  /** The window's end (whole milliseconds, so it can be handed back to `giveBack`). */
  resetsAt: Date;
  /** Milliseconds until then, by the database's clock (every instance reads the same one). */
  ttlMs: number;
}

const { hits, resetsAt } = rateLimitCounters;
const windowEnd = sql`date_trunc('milliseconds', now()) + ${sql.placeholder("windowMs")} * interval '1 millisecond'`;
const expired = sql`${resetsAt} <= now()`;

/**
 * What a key is stored as: its SHA-256. Keys hold what clients send (a login's e-mail, read
 * before validation, may hold any character, NUL included, which a text column refuses), and a
 * table of e-mail addresses and client addresses is not worth keeping.
 */
const stored = (key: string) => createHash("sha256").update(key).digest("base64url");

/**
 * Counts one hit against `key` in a fixed window of `windowMs` that starts with the key's first
 * hit, in one statement: concurrent hits from any number of server instances each get their own
 * count. A window that is over starts again at 1.
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

  return {
    async hit(key: string, windowMs: number): Promise<Count> {
      const [row] = await hit.execute({ key: stored(key), windowMs });
      if (!row) throw new Error("the rate-limit upsert returned no row");
      return row;
    },
    /** Takes back one hit of the window that ends at `resetsAt` (a later window is left alone). */
    async giveBack(key: string, windowEnds: Date): Promise<void> {
      await db
        .update(rateLimitCounters)
        .set({ hits: sql`${hits} - 1` })
        .where(and(eq(rateLimitCounters.key, stored(key)), eq(resetsAt, windowEnds), gt(hits, 0)));
    },
  };
}

export type Counters = ReturnType<typeof createCounters>;

/** Deletes the counters whose window is over; returns how many. */
export async function pruneCounters(db: Db): Promise<number> {
  const result = await db.delete(rateLimitCounters).where(lt(resetsAt, sql`now()`));
  return result.rowCount ?? 0;
}
