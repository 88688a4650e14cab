/**
 * Global (20): the service's settings in `global_settings` (one row per key), changed by staff
 * with the change audited (old → new), and the part the wallet app reads without a session.
 */
import { inArray, sql } from "drizzle-orm";

import {
  GLOBAL_SETTING_DEFAULTS,
  GLOBAL_SETTING_KEYS,
  maintenanceExplained,
  type AppConfig,
  type GlobalSettings,
  type GlobalSettingsBody,
} from "../../src/shared/global-settings";
import { PERMISSION } from "../../src/shared/permissions";
import { recordAudit } from "../audit";
import type { Config } from "../config";
import type { DbOrTx, Tx } from "../db";
import { globalSettings } from "../db/schema";
import { HttpError } from "../errors";
import type { StandaloneChange } from "../kit/four-eyes";
import { fallbackSupportEmail } from "./settings";

/** Every setting: the stored value of each key, else its default. */
export async function readGlobalSettings(db: DbOrTx): Promise<GlobalSettings> {
  const rows = await db
    .select({ key: globalSettings.key, value: globalSettings.value })
    .from(globalSettings)
    .where(inArray(globalSettings.key, GLOBAL_SETTING_KEYS));
  const stored = Object.fromEntries(rows.map((row) => [row.key, row.value]));
  const settings = { ...GLOBAL_SETTING_DEFAULTS };
  for (const key of GLOBAL_SETTING_KEYS) {
    const value = stored[key];
    const fallback = GLOBAL_SETTING_DEFAULTS[key];
    const sound = Array.isArray(fallback)
      ? Array.isArray(value)
      : typeof value === (key === "supportEmail" ? "string" : typeof fallback);
    if (sound) Object.assign(settings, { [key]: value });
  }
  return settings;
}

/** The settings as the console reads them, with the support address used when none is set. */
export async function globalSettingsAnswerOf(db: DbOrTx, config: Config) {
  const settings = await readGlobalSettings(db);
  return { ...settings, supportEmailFallback: await fallbackSupportEmail(db, config) };
}

export function appConfigOf(settings: GlobalSettings): AppConfig {
  return {
    maintenance: {
      enabled: settings.maintenanceEnabled,
      message: { "en-US": settings.maintenanceMessageEn, "cn-ZH": settings.maintenanceMessageZh },
    },
    minimumVersions: { ios: settings.minIosVersion, android: settings.minAndroidVersion },
  };
}

/** Locks the settings until the transaction ends (two staff saving at once queue). */
async function lockedSettings(tx: Tx): Promise<GlobalSettings> {
  await tx.execute(sql`lock table ${globalSettings} in share row exclusive mode`);
  return readGlobalSettings(tx);
}

/** Maintenance without its message in both languages: 400 MAINTENANCE_MESSAGE_REQUIRED. */
function checkSettings(after: GlobalSettings) {
  if (!maintenanceExplained(after)) {
    throw new HttpError(
      400,
      "Maintenance needs its message in English and in Chinese",
      "MAINTENANCE_MESSAGE_REQUIRED",
    );
  }
}

/**
 * Applies a change under a lock on the settings: only keys whose value differs are written and
 * audited, before and after of those keys (and the checker who approved it, under four eyes).
 */
export async function changeGlobalSettings(
  tx: Tx,
  run: { adminId: number; body: GlobalSettingsBody; approvedBy?: number },
) {
  const before = await lockedSettings(tx);
  const after = { ...before, ...run.body };
  // Codes are a set: kept in order, each once, so that the same set is no change.
  after.secondFactorCodes = [...new Set(after.secondFactorCodes)].sort((a, b) => a - b);
  checkSettings(after);
  const same = (key: keyof GlobalSettings) =>
    JSON.stringify(after[key]) === JSON.stringify(before[key]);
  const changed = GLOBAL_SETTING_KEYS.filter((key) => !same(key));
  if (changed.length === 0) return;
  const removed = changed.filter((key) => after[key] === null);
  const written = changed.filter((key) => after[key] !== null);
  if (removed.length > 0) {
    await tx.delete(globalSettings).where(inArray(globalSettings.key, removed));
  }
  if (written.length > 0) {
    await tx
      .insert(globalSettings)
      .values(written.map((key) => ({ key, value: after[key] })))
      .onConflictDoUpdate({
        target: globalSettings.key,
        set: { value: sql`excluded.value`, updatedAt: new Date() },
      });
  }
  const pick = (from: GlobalSettings) => Object.fromEntries(changed.map((key) => [key, from[key]]));
  await recordAudit(tx, {
    adminId: run.adminId,
    action: "global_settings.update",
    targetTable: "global_settings",
    targetId: "global",
    before: pick(before),
    after: pick(after),
    approvedBy: run.approvedBy ?? null,
  });
}

/**
 * A change of the settings under four eyes (server/kit/four-eyes.ts): every change waits for a
 * second administrator holding Global (20), who sees each changed setting old → new.
 */
export const globalSettingsChange: StandaloneChange = {
  module: "global-settings",
  action: "update",
  permission: PERMISSION.global,
  fourEyes: {},
  read: lockedSettings,
  check: (after) => checkSettings(after as GlobalSettings),
  apply: (tx, { actor, body, approvedBy }) =>
    changeGlobalSettings(tx, { adminId: actor.id, body: body as GlobalSettingsBody, approvedBy }),
};
