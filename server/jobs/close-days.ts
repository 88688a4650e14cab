import type { Db } from "../db";
import { closeDays } from "../db/closed-days";
import type { ScheduledJob } from "./scheduler";

/** The scheduled job that closes business days (every quarter of an hour, on one instance). */
export function closeDaysJob(everySeconds = 900): ScheduledJob {
  return {
    name: "close-days",
    everySeconds,
    async run(db: Db) {
      return { closedDays: await closeDays(db) };
    },
  };
}
