import { asc, eq, sql, type SQL } from "drizzle-orm";

import type { Config } from "../config";
import type { DbOrTx } from "../db";
import { administrators, globalSettings } from "../db/schema";

export const SETTING_KEYS = {
  /** The contact shown to an administrator who is banned from login. */
  supportEmail: "supportEmail",
  /** Days without activity after which a user counts as dormant (a positive integer). */
  dormancyDays: "dormancyDays",
} as const;

export const DEFAULT_DORMANCY_DAYS = 365;
/** A stored value outside 1…MAX is ignored (the default applies) rather than failing the list. */
export const MAX_DORMANCY_DAYS = 36_500;

export async function readSetting(db: DbOrTx, key: string): Promise<unknown> {
  const [row] = await db
    .select({ value: globalSettings.value })
    .from(globalSettings)
    .where(eq(globalSettings.key, key));
  return row?.value;
}

/**
 * The support contact: the global setting (editable in the console), else SUPPORT_EMAIL, else the
 * first super administrator's e-mail.
 */
export async function supportEmail(db: DbOrTx, config: Config): Promise<string | null> {
  const stored = await readSetting(db, SETTING_KEYS.supportEmail);
  if (typeof stored === "string" && stored.trim()) return stored;
  if (config.supportEmail) return config.supportEmail;
  const [superAdmin] = await db
    .select({ email: administrators.email })
    .from(administrators)
    .where(eq(administrators.isSuperAdmin, true))
    .orderBy(asc(administrators.id))
    .limit(1);
  return superAdmin?.email ?? null;
}

/**
 * The dormancy period in days as an SQL expression, read when the query runs (a list route's `baseWhere` is
 * built once at start-up, and the setting may change afterwards). A stored value that is not an
 * integer between 1 and MAX_DORMANCY_DAYS counts as unset.
 */
export function dormancyDaysSql(): SQL<number> {
  const value = sql`${globalSettings.value}`;
  const days = sql`(${value} #>> '{}')::numeric`;
  // Nested CASEs: PostgreSQL does not promise to evaluate AND's operands in order, and the cast
  // must only see numbers.
  return sql<number>`coalesce((
    select case when jsonb_typeof(${value}) = 'number' then
      case when ${days} between 1 and ${sql.raw(String(MAX_DORMANCY_DAYS))} and ${days} = trunc(${days})
      then ${days}::int end
    end
    from ${globalSettings}
    where ${globalSettings.key} = ${SETTING_KEYS.dormancyDays}
  ), ${sql.raw(String(DEFAULT_DORMANCY_DAYS))})`;
}
