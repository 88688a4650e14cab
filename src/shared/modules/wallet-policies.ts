import { z } from "zod";

import { defineModule, field, form, type ItemOf } from "../kit/module";
import { administratorLink, instant, money, recordId, text } from "../kit/presets";
import { nonNegativeSen, positiveSen } from "../kit/types";
import { PERMISSION } from "../permissions";
import { crossFieldRule, distinctItems } from "../schemas/rules";
import { safeMultilineText } from "../text";

/**
 * The declared changes that need a second approver and that a policy may turn four eyes off for
 * (`<module>.<action>`): a change listed in the version in force applies at once. Never the
 * policy's own versions (the switch stays under four eyes), and in production never a money
 * movement (a change whose declaration names an amount): 400 FOUR_EYES_REQUIRED. The server
 * checks at start that this list names every declared four-eyes change but the policy's.
 */
export const FOUR_EYES_SWITCHABLE = [
  "top-up-transactions.create",
  "top-up-transactions.reverse",
  "settlements.markPaid",
  "reconciliation.investigate",
  "user-reports.resolve",
  "administrators.create",
  "administrators.permissions",
  "administrators.resetFactors",
  "global-settings.update",
] as const;
export type FourEyesSwitch = (typeof FOUR_EYES_SWITCHABLE)[number];

/** The order the limits must keep: each at most the next. */
const LIMIT_ORDER = ["minTopUpSen", "maxTopUpSen", "dailyTopUpLimitSen", "maxBalanceSen"] as const;

/** A new policy version: every limit positive, `min ≤ max top-up ≤ daily top-up ≤ max balance`. */
export const walletPolicyBody = crossFieldRule(
  z.strictObject({
    minTopUpSen: positiveSen,
    maxTopUpSen: positiveSen,
    dailyTopUpLimitSen: positiveSen,
    maxBalanceSen: positiveSen,
    dailyPaymentLimitSen: positiveSen,
    dormancyDays: z
      .int("Dormancy must be a whole number of days")
      .min(1, "Dormancy must be at least 1 day")
      .max(36_500, "Dormancy must be at most 36500 days"),
    // Four eyes (src/shared/kit/four-eyes.ts): absent, the version in force's threshold stays.
    fourEyesTopUpAboveSen: nonNegativeSen.optional(),
    fourEyesRefundAboveSen: nonNegativeSen.optional(),
    // Absent, the version in force's list stays; each change at most once.
    fourEyesOff: distinctItems(
      z.array(z.enum(FOUR_EYES_SWITCHABLE)).max(FOUR_EYES_SWITCHABLE.length),
      "Each change at most once",
    ).optional(),
    remark: safeMultilineText().trim().max(500).optional(),
  }),
  { fields: [...LIMIT_ORDER], rule: LIMIT_ORDER.join(" ≤ ") },
  (policy, context) => {
    for (const [index, lower] of LIMIT_ORDER.slice(0, -1).entries()) {
      const upper = LIMIT_ORDER[index + 1]!;
      if (policy[lower] > policy[upper]) {
        context.addIssue({
          code: "custom",
          path: [lower],
          message: `${lower} must not exceed ${upper}`,
          params: { rule: "notAbove", other: upper },
        });
      }
    }
  },
).meta({ id: "WalletPolicyBody" });
export type WalletPolicyBody = z.infer<typeof walletPolicyBody>;

const limit = () => money({ list: 130 });

/**
 * Wallet Policy (24): the limits every top-up and payment obeys and the dormancy period, as
 * versions: the newest is in force, a change adds a version (who, when, why).
 */
export const walletPolicies = defineModule({
  name: "wallet-policies",
  permission: PERMISSION.walletPolicy,
  thing: { one: "Wallet Policy", many: "Wallet Policies" },
  i18n: "walletPolicy",
  schemaId: "WalletPolicy",
  paths: { list: "/wallet-policy", create: "/wallet-policy/create" },
  fields: {
    id: recordId({ list: 90 }),
    minTopUpSen: limit(),
    maxTopUpSen: limit(),
    dailyTopUpLimitSen: limit(),
    maxBalanceSen: limit(),
    dailyPaymentLimitSen: limit(),
    dormancyDays: field(z.number().int(), { list: { width: 110 }, show: true, export: true }),
    fourEyesTopUpAboveSen: money({ list: 130 }),
    fourEyesRefundAboveSen: money({ list: 130 }),
    fourEyesOff: field(z.array(z.enum(FOUR_EYES_SWITCHABLE)), {
      show: true,
      export: true,
      empty: "fourEyesNoneOff",
    }),
    remark: text({ nullable: true, list: 200 }),
    ...administratorLink("adminId", "adminName", { list: 160, export: true, empty: "system" }),
    createdAt: instant({ list: 160 }),
  },
  titleField: "id",
  defaultSort: [["id", "desc"]],
  create: form({
    body: walletPolicyBody,
    audit: "wallet_policy",
    inputs: {
      minTopUpSen: { kind: "money" },
      maxTopUpSen: { kind: "money" },
      dailyTopUpLimitSen: { kind: "money" },
      maxBalanceSen: { kind: "money" },
      dailyPaymentLimitSen: { kind: "money" },
      fourEyesTopUpAboveSen: { kind: "money" },
      fourEyesRefundAboveSen: { kind: "money" },
      remark: { kind: "multiline" },
    },
    // The limits of every wallet, and the thresholds of four eyes: always a second approver.
    fourEyes: {},
    stepUp: true,
  }),
});

export type WalletPolicyDto = ItemOf<typeof walletPolicies>;
