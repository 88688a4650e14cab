import type { Db } from "../db";
import { CLOSE_GRACE_MS } from "../db/closed-days";
import { daysToReconcile, reconcileDay } from "../services/reconciliation";
import type { ScheduledJob } from "./scheduler";

/**
 * The scheduled job that reconciles each business day once it is over (CLOSE_GRACE_MS after its
 * end, as days close), and the days missed since the last reconciled one (at most CATCH_UP_DAYS),
 * oldest first: each day's previous close is then the day before's. Leased across instances like
 * every job; a day already reconciled is not run again (Finance reruns one on demand).
 */
export function reconcileJob(everySeconds = 900): ScheduledJob {
  return {
    name: "reconcile",
    everySeconds,
    async run(db: Db) {
      const days = await daysToReconcile(db, new Date(), CLOSE_GRACE_MS);
      const failed: string[] = [];
      for (const day of days) {
        const { result } = await reconcileDay(db, day, { adminId: null });
        if (result.status === "failed") failed.push(day);
      }
      return { reconciledDays: days.length, redDays: failed };
    },
  };
}
