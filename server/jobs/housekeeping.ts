import { lt, sql } from "drizzle-orm";

import { revokedTokens } from "../db/schema";
import { pruneCounters } from "../rate-limit/counters";
import { pruneSlidingLogs } from "../rate-limit/sliding-log";
import type { ScheduledJob } from "./scheduler";

/**
 * Deletes what no check reads any more: rate-limit counters whose window is over, sliding
 * rate-limit logs none of whose hits is in their window any more, and revoked tokens past their
 * expiry (an expired token is refused by its signature's expiry alone).
 */
export function housekeepingJob(everySeconds: number): ScheduledJob {
  return {
    name: "housekeeping",
    everySeconds,
    async run(db) {
      const counters = await pruneCounters(db);
      const logs = await pruneSlidingLogs(db);
      const tokens = await db.delete(revokedTokens).where(lt(revokedTokens.expiresAt, sql`now()`));
      return {
        expiredCounters: counters,
        expiredLogs: logs,
        expiredRevocations: tokens.rowCount ?? 0,
      };
    },
  };
}
