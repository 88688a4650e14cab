import { z } from "zod";

import { defineModule, field, type ItemOf, remarkAction } from "../kit/module";
import { administratorLink, choice, count, instant, money, recordId, text } from "../kit/presets";
import { isoDate } from "../kit/types";
import { PERMISSION } from "../permissions";

/** The checks of a day, in the order they run and are shown (docs/reconciliation.md). */
export const RECONCILIATION_CHECKS = [
  "walletBalances",
  "float",
  "topUps",
  "settlements",
  "settlementItems",
] as const;
export type ReconciliationCheckName = (typeof RECONCILIATION_CHECKS)[number];

/**
 * A day as the list shows it: `passed` (green), `failed` (red, not yet looked into) or
 * `investigated` (red, marked investigated with a remark).
 */
export const RECONCILIATION_STATES = ["passed", "failed", "investigated"] as const;
export type ReconciliationState = (typeof RECONCILIATION_STATES)[number];

/**
 * One row that differs: what kind of difference (`link`: a ledger row's balance after is not
 * its wallet's previous balance plus its amount; `balance`: a wallet's balance is not its newest
 * row's; `status`: a top-up's status disagrees with what it did to the balance; `channel`: the
 * top-ups of a channel disagree with the roll-up; `float`; `settlement`: a settlement's figure;
 * `item`: an item that is not a counted row of the settlement's business; `duplicate`: an item
 * in two settlements), the records it names, and what was expected against what was found.
 */
export const reconciliationDifference = z
  .object({
    kind: z.string(),
    transactionId: z.number().int().optional(),
    userId: z.number().int().optional(),
    accountNumber: z.string().nullable().optional(),
    settlementId: z.number().int().optional(),
    settlementIds: z.array(z.number().int()).optional(),
    businessId: z.number().int().optional(),
    businessName: z.string().optional(),
    channel: z.string().optional(),
    type: z.string().optional(),
    status: z.string().optional(),
    field: z.string().optional(),
    amountSen: z.number().int().optional(),
    expectedSen: z.number().int().optional(),
    actualSen: z.number().int().optional(),
    differenceSen: z.number().int().optional(),
    expectedCount: z.number().int().optional(),
    actualCount: z.number().int().optional(),
  })
  .meta({ id: "ReconciliationDifference" });

/** One check of a day: passed or not, its figures, and the first rows that differ. */
export const reconciliationCheck = z
  .object({
    name: z.enum(RECONCILIATION_CHECKS),
    passed: z.boolean(),
    figures: z.record(z.string(), z.union([z.number(), z.string(), z.null()])),
    /** How many rows differ in all (the list keeps the first 50). */
    differenceCount: z.number().int(),
    differences: z.array(reconciliationDifference),
  })
  .meta({ id: "ReconciliationCheck" });
export type ReconciliationCheck = z.infer<typeof reconciliationCheck>;

/** The longest remark an investigation keeps. */
export const INVESTIGATION_REMARK_MAX = 500;

/**
 * Settlement > Reconciliation (35): one row per business day, reconciled by the close-of-day
 * job or again by Finance (`POST /api/reconciliation/run {day}`); a red day is marked
 * investigated with a remark, by two administrators (four eyes).
 */
export const reconciliation = defineModule({
  name: "reconciliation",
  permission: PERMISSION.settlement,
  thing: { one: "Reconciliation Day", many: "Reconciliation" },
  i18n: "reconciliation",
  schemaId: "ReconciliationDay",
  paths: { list: "/reconciliation", show: "/reconciliation-day" },
  fields: {
    id: recordId(),
    day: field(isoDate, {
      list: { width: 130 },
      show: true,
      filter: "dateRange",
      sort: true,
      export: true,
      display: { kind: "link", to: "self", idField: "id" },
    }),
    status: choice(z.enum(RECONCILIATION_STATES), {
      list: 130,
      colours: { passed: "green", failed: "red", investigated: "gold" },
    }),
    failedChecks: count({ list: 120 }),
    closingFloatSen: money({ list: 150, sort: true }),
    checks: field(z.array(reconciliationCheck)),
    ...administratorLink("ranBy", "ranByName", { empty: "theJob" }),
    ranAt: instant({ list: 170, filter: false }),
    ...administratorLink("investigatedBy", "investigatedByName"),
    investigatedAt: instant({ nullable: true, filter: false }),
    investigationRemark: text({ nullable: true }),
  },
  titleField: "day",
  defaultSort: [
    ["day", "desc"],
    ["id", "desc"],
  ],
  actions: {
    investigate: remarkAction({
      verb: "investigate",
      done: "investigated",
      when: { status: ["failed"] },
      conflictCode: "RECONCILIATION_NOT_RED",
      audit: "reconciliation",
      // What a red day was found to be is Finance's word on the books: a second approver.
      fourEyes: {},
    }),
  },
});

/** `POST /api/reconciliation/run`: reconcile a business day that is over, again. */
export const reconciliationRunBody = z
  .strictObject({ day: isoDate })
  .meta({ id: "ReconciliationRunBody" });
export type ReconciliationRunBody = z.infer<typeof reconciliationRunBody>;

export type ReconciliationDayDto = ItemOf<typeof reconciliation>;
