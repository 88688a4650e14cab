import { asc, eq, sql, type SQL } from "drizzle-orm";

import type { Config } from "../config";
import type { DbOrTx } from "../db";
import { administrators, globalSettings, walletPolicies } from "../db/schema";

export const SETTING_KEYS = {
  /** The contact shown to an administrator who is banned from login. */
  supportEmail: "supportEmail",
} as const;

export async function readSetting(db: DbOrTx, key: string): Promise<unknown> {
  const [row] = await db
    .select({ value: globalSettings.value })
    .from(globalSettings)
    .where(eq(globalSettings.key, key));
  return row?.value;
}

/**
 * The support contact: the global setting (editable in the console), else the fallback
 * (fallbackSupportEmail).
 */
export async function supportEmail(db: DbOrTx, config: Config): Promise<string | null> {
  const stored = await readSetting(db, SETTING_KEYS.supportEmail);
  if (typeof stored === "string" && stored.trim()) return stored;
  return fallbackSupportEmail(db, config);
}

/** The contact while Global sets none: SUPPORT_EMAIL, else the first super administrator's. */
export async function fallbackSupportEmail(db: DbOrTx, config: Config): Promise<string | null> {
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
 * The dormancy period in days of the wallet policy in force, as an SQL expression read when the
 * query runs (a list route's `baseWhere` is built once at start-up; the policy changes after).
 */
export function dormancyDaysSql(): SQL<number> {
  return sql<number>`(
    select ${walletPolicies.dormancyDays} from ${walletPolicies}
    order by ${walletPolicies.id} desc limit 1
  )`;
}
