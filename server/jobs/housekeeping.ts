import { lt, sql } from "drizzle-orm";

import { adminSessions, loginTickets, passkeyChallenges } from "../db/schema";
import { pruneCounters } from "../rate-limit/counters";
import { pruneSlidingLogs } from "../rate-limit/sliding-log";
import type { ScheduledJob } from "./scheduler";

/**
 * Deletes what no check reads any more: rate-limit counters whose window is over, sliding
 * rate-limit logs none of whose hits is in their window any more, sign-in tickets and passkey
 * challenges past their expiry, and staff sessions a month past their token's expiry (kept that long so an
 * administrator's list and the audit trail can still be read against them).
 */
export function housekeepingJob(everySeconds: number): ScheduledJob {
  return {
    name: "housekeeping",
    everySeconds,
    async run(db) {
      const counters = await pruneCounters(db);
      const logs = await pruneSlidingLogs(db);
      const tickets = await db.delete(loginTickets).where(lt(loginTickets.expiresAt, sql`now()`));
      const challenges = await db
        .delete(passkeyChallenges)
        .where(lt(passkeyChallenges.expiresAt, sql`now()`));
      const sessions = await db
        .delete(adminSessions)
        .where(lt(adminSessions.expiresAt, sql`now() - interval '30 days'`));
      return {
        expiredCounters: counters,
        expiredLogs: logs,
        expiredTickets: tickets.rowCount ?? 0,
        expiredChallenges: challenges.rowCount ?? 0,
        expiredSessions: sessions.rowCount ?? 0,
      };
    },
  };
}
