import { getTableName, sql } from "drizzle-orm";

import type { DbOrTx } from "../db";
import { administrators, auditLog } from "../db/schema";
import type { ScheduledJob } from "./scheduler";

/**
 * Disables the administrators nobody has signed in as for `days` (PCI DSS 8.2.6: 90 days),
 * counted from their last sign-in, or from their account's creation when they never signed in.
 * A disabled administrator's tokens stop working (the credential version moves on), and only
 * another administrator can enable them again (nobody changes their own status). Each is audited
 * `administrator.disable` by the system (no administrator), the reason in its remark. Super
 * administrators are disabled too: an unused all-powerful login is the riskiest of all; the
 * installation keeps at least one active super administrator, so one is always left to enable.
 */
export async function disableDormantAdministrators(db: DbOrTx, days: number): Promise<number> {
  const result = await db.execute(sql`
    with dormant as (
      update ${administrators}
      set status = 'disabled', credential_version = credential_version + 1, updated_at = now()
      where status = 'active'
        and coalesce(last_login_at, created_at) < now() - ${days} * interval '1 day'
        and (not is_super_admin or exists (
          select 1 from ${administrators} other
          where other.is_super_admin and other.status = 'active'
            and coalesce(other.last_login_at, other.created_at) >= now() - ${days} * interval '1 day'))
      returning id, last_login_at)
    insert into ${auditLog} (admin_id, action, target_table, target_id, "before", "after", remark)
    select null, 'administrator.disable', ${getTableName(administrators)}, id::text,
      jsonb_build_object('status', 'active'), jsonb_build_object('status', 'disabled'),
      ${`No sign-in for ${days} days`}
    from dormant`);
  return result.rowCount ?? 0;
}

/** The scheduled job that disables dormant administrators (hourly, on one instance). */
export function dormantAdministratorsJob(days: number, everySeconds = 3600): ScheduledJob {
  return {
    name: "dormant-administrators",
    everySeconds,
    async run(db) {
      return { disabledAdministrators: await disableDormantAdministrators(db, days) };
    },
  };
}
