import { z } from "zod";

import { LEDGER_TYPES, SETTLEMENT_STATUSES } from "../domain";
import {
  defineModule,
  field,
  type ItemOf,
  NEWEST_FIRST,
  related,
  remarkAction,
  textAction,
} from "../kit/module";
import {
  administratorLink,
  choice,
  count,
  instant,
  money,
  recordId,
  reviewFields,
  selfLink,
  text,
} from "../kit/presets";
import { isoDate } from "../kit/types";
import { PERMISSION } from "../permissions";
import { ledgerRowAmount, ledgerRowHead, ledgerRowStatus } from "./top-ups";

/** An amount of a summary or settlement: sortable, and filtered by a URL (no control drawn). */
const amount = (list?: number) => money({ list, filter: true, sort: true, control: false });
/** A business day (BUSINESS_TIMEZONE) a list is filtered and sorted by. */
const businessDay = () =>
  field(isoDate, {
    list: { width: 120 },
    show: true,
    filter: "dateRange",
    sort: true,
    export: true,
    display: { kind: "date" },
  });
/** A business chosen by name: the `record` filter (its choices from the module's own route). */
const businessFields = {
  businessId: field(z.number().int(), { filter: "record", control: true }),
  businessName: text({ list: 200 }),
};

/**
 * Settlement > Merchant Transaction Summary (35): each business's successful payments, refunds,
 * fees and net per business day (BUSINESS_TIMEZONE), with totals over the filtered range. Fees
 * are each payment's, rounded half up to the sen when it was made (feeOfPayment).
 */
export const merchantSummary = defineModule({
  name: "merchant-transaction-summary",
  permission: PERMISSION.settlement,
  thing: { one: "Merchant Day", many: "Merchant Transaction Summary" },
  i18n: "merchantSummary",
  schemaId: "MerchantDay",
  paths: { list: "/merchant-transaction-summary" },
  fields: {
    id: recordId({ filter: false }),
    day: businessDay(),
    ...businessFields,
    paymentCount: count({ list: 100 }),
    grossSen: amount(130),
    refundCount: count(),
    refundSen: amount(120),
    feeSen: amount(110),
    netSen: amount(130),
  },
  titleField: "businessName",
  defaultSort: [
    ["day", "desc"],
    ["id", "desc"],
  ],
  totals: ["paymentCount", "grossSen", "refundCount", "refundSen", "feeSen", "netSen"],
});

/** `POST /api/settlements/run`: settle every approved business up to the end of `periodEnd`. */
export const settlementRunBody = z
  .strictObject({
    periodEnd: isoDate,
  })
  .meta({ id: "SettlementRunBody" });
export type SettlementRunBody = z.infer<typeof settlementRunBody>;

export const settlementRunResult = z
  .object({
    periodEnd: isoDate,
    /** How many settlements the run created (0: everything up to then was settled already). */
    created: z.number().int(),
    /** How many payments and refunds they cover. */
    items: z.number().int(),
    netSen: z.number().int(),
  })
  .meta({ id: "SettlementRunResult" });
export type SettlementRunResult = z.infer<typeof settlementRunResult>;

/** A bank reference of a payout as staff type it (one line). */
export const BANK_REFERENCE_MAX_LENGTH = 64;

const STATUS_TAGS = { pending: "gold", paid: "green", failed: "red" } as const;
const TYPE_TAGS = { payment: "blue", refund: "orange" } as const;

/** The payments and refunds one settlement covers, newest first. */
export const settlementItems = related({
  path: "items",
  queryName: "items",
  i18n: "settlementItems",
  schemaId: "SettlementItem",
  fields: {
    ...ledgerRowHead(),
    type: field(z.enum(LEDGER_TYPES), {
      list: { width: 100 },
      filter: "choice",
      display: { kind: "tag", colours: TYPE_TAGS },
    }),
    payerAccountNumber: field(z.string(), { list: { width: 130 } }),
    /** Paid to the business (a payment) or given back (a refund), positive. */
    amountSen: ledgerRowAmount(),
    feeSen: field(z.number().int().nullable(), { list: { width: 90 }, display: { kind: "money" } }),
    status: ledgerRowStatus(),
  },
  defaultSort: NEWEST_FIRST,
});

/**
 * Settlement > Settlement Record (35): payouts to merchants, made by a run up to a business day;
 * marked paid with the bank's reference (final), or failed with a remark (and paid later).
 */
export const settlements = defineModule({
  name: "settlements",
  permission: PERMISSION.settlement,
  thing: { one: "Settlement", many: "Settlements" },
  i18n: "settlement",
  schemaId: "Settlement",
  paths: { list: "/settlement-record", show: "/settlement-details" },
  fields: {
    id: recordId(),
    invoiceNumber: selfLink({ list: 170, search: false }),
    ...businessFields,
    businessRegistrationNumber: text(),
    periodStart: field(isoDate, {
      show: true,
      export: true,
      display: { kind: "date" },
    }),
    periodEnd: businessDay(),
    paymentCount: count({ list: 100 }),
    grossSen: amount(130),
    refundCount: count(),
    refundSen: amount(),
    feeSen: amount(110),
    netSen: amount(130),
    status: choice(z.enum(SETTLEMENT_STATUSES), { list: 100, colours: STATUS_TAGS }),
    bankName: text(),
    /** Only its last four digits ever leave the server. */
    bankAccount: text(),
    bankReference: text({ nullable: true }),
    paidAt: instant({ nullable: true }),
    ...administratorLink("createdBy", "createdByName"),
    ...reviewFields(),
    createdAt: instant(),
  },
  titleField: "invoiceNumber",
  defaultSort: NEWEST_FIRST,
  related: { items: settlementItems },
  actions: {
    markPaid: textAction({
      verb: "mark-paid",
      done: "markedPaid",
      when: { status: ["pending", "failed"] },
      conflictCode: "ALREADY_PAID",
      audit: "settlement",
      // The merchant's money released: always a second approver, holding Settlement.
      fourEyes: { amount: { record: "netSen" } },
      stepUp: true,
      input: {
        name: "bankReference",
        max: BANK_REFERENCE_MAX_LENGTH,
        label: "Bank reference",
        schemaId: "SettlementMarkPaidBody",
      },
    }),
    markFailed: remarkAction({
      verb: "mark-failed",
      done: "markedFailed",
      when: { status: ["pending"] },
      conflictCode: "SETTLEMENT_NOT_PENDING",
      danger: true,
      audit: "settlement",
    }),
  },
});

export type MerchantDayDto = ItemOf<typeof merchantSummary>;
export type SettlementDto = ItemOf<typeof settlements>;
