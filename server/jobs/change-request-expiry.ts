import { getTableName, sql } from "drizzle-orm";

import type { DbOrTx } from "../db";
import { auditLog, changeRequests } from "../db/schema";
import type { ScheduledJob } from "./scheduler";

/** Requests expired per statement: a short statement, so requests take turns with a large sweep. */
const BATCH = 500;

/** The audit entry of each request the job expires (the system's: no administrator). */
const EXPIRY_AUDIT = { action: "change_request.expire", targetTable: getTableName(changeRequests) };

/**
 * Stores the expiry of four eyes' requests (docs/four-eyes.md, "Expiry"): each `pending` change
 * request past its `expires_at` becomes `expired`, decided at its expiry (the table's check wants
 * a decided request to have `decided_at`), with one audit entry `change_request.expire` (pending
 * → expired) written by the same statement. A request a checker is deciding right now (its row
 * locked) is skipped, never waited for: the decision settles it, or the next run expires it.
 * Found through the partial index of pending requests (change_requests_pending_idx): a few pages
 * however many requests were decided before. Answers how many it expired.
 */
export async function expireChangeRequests(db: DbOrTx, batch = BATCH): Promise<number> {
  let expired = 0;
  for (;;) {
    const result = await db.execute(sql`
      with expired as (
        update ${changeRequests}
        set status = 'expired', decided_at = ${changeRequests.expiresAt}, updated_at = now()
        where ${changeRequests.id} in (
          select ${changeRequests.id} from ${changeRequests}
          where ${changeRequests.status} = 'pending' and ${changeRequests.expiresAt} <= now()
          limit ${batch}
          for update skip locked)
        returning ${changeRequests.id} as id, ${changeRequests.expiresAt} as expires_at)
      insert into ${auditLog} (admin_id, action, target_table, target_id, "before", "after")
      select null, ${EXPIRY_AUDIT.action}, ${EXPIRY_AUDIT.targetTable}, id::text,
        jsonb_build_object('status', 'pending'),
        jsonb_build_object('status', 'expired', 'decidedAt',
          to_char(expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      from expired`);
    const count = result.rowCount ?? 0;
    expired += count;
    if (count < batch) return expired;
  }
}

/**
 * The scheduled job that stores expired change requests (every minute, on one instance). Between
 * two runs a request past its time still reads `expired` (the module's status), cannot be decided
 * or withdrawn, and is left out of the counts; only the list's status filter, which reads the
 * stored column through its index, sees it as pending until the run (at most a run's interval
 * and a quarter, the scheduler's check).
 */
export function changeRequestExpiryJob(everySeconds = 60): ScheduledJob {
  return {
    name: "change-request-expiry",
    everySeconds,
    async run(db) {
      return { expiredRequests: await expireChangeRequests(db) };
    },
  };
}
