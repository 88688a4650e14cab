/**
 * Global (20): settings of the whole service (docs/modules.md, "Global (20) and Setting"), shared
 * by the server's routes and the console's form so both apply the same rules.
 */
import { z } from "zod";

import { field, type LinkedModule } from "./kit/module";
import { text } from "./kit/presets";
import { permissionCodesSchema } from "./schemas/administrator-forms";
import { emailSchema } from "./schemas/common";
import { atLeastOneField } from "./schemas/rules";
import { safeMultilineText, safeText } from "./text";

/** An app version as the stores number it: major.minor.patch, each at most 4 digits. */
export const APP_VERSION_PATTERN = /^(0|[1-9]\d{0,3})\.(0|[1-9]\d{0,3})\.(0|[1-9]\d{0,3})$/;

const appVersion = safeText()
  .trim()
  .max(14)
  .regex(APP_VERSION_PATTERN, "Version is major.minor.patch, e.g. 2.4.0");

/** The maintenance message shown in the wallet app, in each language. */
const maintenanceMessage = safeMultilineText().trim().max(500);

/**
 * Who must have a second factor to use the console: everyone, those holding any of
 * `secondFactorCodes` (super administrators hold every code), or nobody. An administrator it
 * applies to and who has none is taken to enrolment right after the password.
 */
export const SECOND_FACTOR_REQUIREMENTS = ["everyone", "codes", "nobody"] as const;
export type SecondFactorRequirement = (typeof SECOND_FACTOR_REQUIREMENTS)[number];

/** Every setting, each with the value it has until staff set it. */
export const globalSettingsSchema = z
  .object({
    /** The contact shown to a banned administrator; null: SUPPORT_EMAIL or the super admin's. */
    supportEmail: z.string().nullable(),
    maintenanceEnabled: z.boolean(),
    maintenanceMessageEn: z.string(),
    maintenanceMessageZh: z.string(),
    minIosVersion: z.string(),
    minAndroidVersion: z.string(),
    /** The fee rate a new business starts with, in basis points. */
    defaultFeeRateBp: z.number().int(),
    secondFactorRequired: z.enum(SECOND_FACTOR_REQUIREMENTS),
    secondFactorCodes: z.array(z.number().int()),
  })
  .meta({ id: "GlobalSettings" });
export type GlobalSettings = z.infer<typeof globalSettingsSchema>;
export type GlobalSettingKey = keyof GlobalSettings;

export const GLOBAL_SETTING_DEFAULTS: GlobalSettings = {
  supportEmail: null,
  maintenanceEnabled: false,
  maintenanceMessageEn: "",
  maintenanceMessageZh: "",
  minIosVersion: "1.0.0",
  minAndroidVersion: "1.0.0",
  defaultFeeRateBp: 0,
  // Production's default; the demo's seed sets "nobody" so that its logins need only a password.
  secondFactorRequired: "everyone",
  secondFactorCodes: [],
};

export const GLOBAL_SETTING_KEYS = Object.keys(GLOBAL_SETTING_DEFAULTS) as GlobalSettingKey[];

/** The settings as read, with the contact a banned administrator sees when none is set. */
export const globalSettingsAnswer = globalSettingsSchema
  .extend({ supportEmailFallback: z.string().nullable() })
  .meta({ id: "GlobalSettingsAnswer" });
export type GlobalSettingsAnswer = z.infer<typeof globalSettingsAnswer>;

/**
 * A change of some settings: each key optional, at least one; a null support e-mail goes back to
 * the fallback. Maintenance needs its message in both languages (checked on the result).
 */
export const globalSettingsBody = atLeastOneField(
  z
    .strictObject({
      supportEmail: emailSchema.nullable(),
      maintenanceEnabled: z.boolean(),
      maintenanceMessageEn: maintenanceMessage,
      maintenanceMessageZh: maintenanceMessage,
      minIosVersion: appVersion,
      minAndroidVersion: appVersion,
      defaultFeeRateBp: z
        .int("Fee rate must be a whole number of basis points")
        .min(0, "Fee rate must be at least 0")
        .max(10_000, "Fee rate must be at most 10000 basis points (100%)"),
      secondFactorRequired: z.enum(SECOND_FACTOR_REQUIREMENTS),
      secondFactorCodes: permissionCodesSchema,
    })
    .partial(),
  "Nothing to change",
).meta({ id: "GlobalSettingsBody" });
export type GlobalSettingsBody = z.infer<typeof globalSettingsBody>;

/** Whether maintenance, if on, has its message in both languages. */
export const maintenanceExplained = (settings: GlobalSettings) =>
  !settings.maintenanceEnabled ||
  (settings.maintenanceMessageEn.trim() !== "" && settings.maintenanceMessageZh.trim() !== "");

/** `GET /api/public/app-config`: what the wallet app checks at start, without a session. */
export const appConfigSchema = z
  .object({
    maintenance: z.object({
      enabled: z.boolean(),
      message: z.object({ "en-US": z.string(), "cn-ZH": z.string() }),
    }),
    minimumVersions: z.object({ ios: z.string(), android: z.string() }),
  })
  .meta({ id: "AppConfig" });
export type AppConfig = z.infer<typeof appConfigSchema>;

/**
 * The settings described the way a module describes its fields, for the screens that name a
 * change of them in the settings' own words (Pending approvals: "Minimum iOS app version
 * 1.0.0 → 2.4.0", the fee rate in percent). Not a module: no list, no record, one page.
 */
export const globalSettingsDescribed: LinkedModule = {
  name: "global-settings",
  i18n: "global",
  paths: { list: "/global" },
  fields: {
    supportEmail: text({ nullable: true }),
    maintenanceEnabled: field(z.boolean(), { show: true }),
    maintenanceMessageEn: text(),
    maintenanceMessageZh: text(),
    minIosVersion: text(),
    minAndroidVersion: text(),
    defaultFeeRateBp: field(z.number().int(), { show: true, display: { kind: "basisPoints" } }),
    secondFactorRequired: field(z.enum(SECOND_FACTOR_REQUIREMENTS), { show: true }),
    secondFactorCodes: field(z.array(z.number().int()), { show: true }),
  },
};

/** Whether the settings require `admin` to have a second factor. */
export function secondFactorRequiredOf(
  settings: Pick<GlobalSettings, "secondFactorRequired" | "secondFactorCodes">,
  admin: { permissions: readonly number[]; isSuperAdmin: boolean },
): boolean {
  switch (settings.secondFactorRequired) {
    case "everyone":
      return true;
    case "nobody":
      return false;
    case "codes":
      return (
        admin.isSuperAdmin ||
        settings.secondFactorCodes.some((code) => admin.permissions.includes(code))
      );
  }
}
