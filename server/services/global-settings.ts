/**
 * Global (20): the service's settings in `global_settings` (one row per key), changed by staff
 * with the change audited (old → new), and the part the wallet app reads without a session.
 */
import { inArray, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

import {
  appConfigSchema,
  GLOBAL_SETTING_DEFAULTS,
  GLOBAL_SETTING_KEYS,
  globalSettingsAnswer,
  globalSettingsBody,
  maintenanceExplained,
  type AppConfig,
  type GlobalSettings,
  type GlobalSettingsBody,
} from "../../src/shared/global-settings";
import { errorResponses } from "../../src/shared/schemas/common";
import { PERMISSION } from "../../src/shared/permissions";
import { recordAudit } from "../audit";
import { currentAdmin } from "../auth/access";
import type { Config } from "../config";
import type { Db, DbOrTx } from "../db";
import { globalSettings } from "../db/schema";
import { HttpError } from "../errors";
import type { RouteDeps } from "../routes/types";
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
    const expected = key === "supportEmail" ? "string" : typeof GLOBAL_SETTING_DEFAULTS[key];
    if (typeof value === expected) Object.assign(settings, { [key]: value });
  }
  return settings;
}

async function answer(db: DbOrTx, config: Config) {
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

/**
 * Applies a change under a lock on the settings (two staff saving at once queue): only keys whose
 * value differs are written and audited, before and after of those keys. Maintenance without its
 * message in both languages is refused (400 MAINTENANCE_MESSAGE_REQUIRED).
 */
async function changeGlobalSettings(db: Db, adminId: number, body: GlobalSettingsBody) {
  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table ${globalSettings} in share row exclusive mode`);
    const before = await readGlobalSettings(tx);
    const after = { ...before, ...body };
    if (!maintenanceExplained(after)) {
      throw new HttpError(
        400,
        "Maintenance needs its message in English and in Chinese",
        "MAINTENANCE_MESSAGE_REQUIRED",
      );
    }
    const changed = GLOBAL_SETTING_KEYS.filter((key) => after[key] !== before[key]);
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
    const pick = (from: GlobalSettings) =>
      Object.fromEntries(changed.map((key) => [key, from[key]]));
    await recordAudit(tx, {
      adminId,
      action: "global_settings.update",
      targetTable: "global_settings",
      targetId: "global",
      before: pick(before),
      after: pick(after),
    });
  });
}

export const globalSettingsRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { db, config },
) => {
  const access = { permission: PERMISSION.global, thing: "Global Settings" } as const;

  app.get(
    "/api/global-settings",
    {
      config: { access },
      schema: {
        tags: ["global-settings"],
        summary: "The service's settings (Global)",
        response: { 200: globalSettingsAnswer, ...errorResponses(401, 403) },
      },
    },
    async () => answer(db, config),
  );

  app.patch(
    "/api/global-settings",
    {
      config: { access },
      schema: {
        tags: ["global-settings"],
        summary: "Change some of the service's settings (audited, old and new values)",
        body: globalSettingsBody,
        response: { 200: globalSettingsAnswer, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      await changeGlobalSettings(db, currentAdmin(request).id, request.body);
      return answer(db, config);
    },
  );

  app.get(
    "/api/public/app-config",
    {
      config: { access: "public" },
      schema: {
        tags: ["public"],
        summary: "Maintenance and minimum app versions, for the wallet app (no session)",
        response: { 200: appConfigSchema },
      },
    },
    async (_request, reply) => {
      reply.header("cache-control", "no-cache");
      return appConfigOf(await readGlobalSettings(db));
    },
  );
};
