import { z } from "zod";

import { BUSINESS_CATEGORIES, BUSINESS_STATUSES } from "../domain";
import {
  defineModule,
  field,
  form,
  type ItemOf,
  NEWEST_FIRST,
  related,
  remarkAction,
} from "../kit/module";
import {
  approvalDecision,
  choice,
  recordId,
  reviewFields,
  selfLink,
  text,
  timestamps,
} from "../kit/presets";
import { PERMISSION } from "../permissions";
import { ledgerRowAmount, ledgerRowHead, ledgerRowStatus } from "./top-ups";

const STATUS_TAGS = {
  pending: "gold",
  approved: "green",
  rejected: "red",
  suspended: "grey",
} as const;

/** A merchant's fee on each payment, in basis points: 0 to 10000 (100%). */
export const feeRateBody = z
  .strictObject({
    feeRateBp: z
      .int("Fee rate must be a whole number of basis points")
      .min(0, "Fee rate must be at least 0")
      .max(10_000, "Fee rate must be at most 10000 basis points (100%)"),
  })
  .meta({ id: "BusinessFeeRateBody" });

/** The fields of a business, shared by its list and its approval queue. */
const BUSINESS_FIELDS = {
  id: recordId(),
  name: selfLink({ list: 200, sort: true }),
  registrationNumber: text({ list: 160, filter: true, search: true }),
  category: choice(z.enum(BUSINESS_CATEGORIES), { list: 130 }),
  status: choice(z.enum(BUSINESS_STATUSES), { list: 120, colours: STATUS_TAGS }),
  ownerUserId: field(z.number().int(), { filter: "numberRange" }),
  ownerName: text({ list: 170, display: { kind: "link", to: "users", idField: "ownerUserId" } }),
  ownerAccountNumber: text({ filter: true, search: true }),
  feeRateBp: field(z.number().int(), {
    list: { width: 100 },
    show: true,
    filter: "numberRange",
    sort: true,
    export: true,
    display: { kind: "basisPoints" },
  }),
  bankName: text(),
  /** Only its last four digits ever leave the server. */
  bankAccount: text({ list: 130 }),
  ...reviewFields(),
  ...timestamps({ list: 150 }),
};

/**
 * Wallet payments to a merchant, newest first: who paid, how much, and what became of it (a
 * refunded payment is `reversed`). Its words are the `payments` namespace.
 */
export const merchantPayments = related({
  path: "payments",
  queryName: "payments",
  i18n: "payments",
  schemaId: "MerchantPayment",
  fields: {
    ...ledgerRowHead(),
    payerId: field(z.number().int()),
    payerName: field(z.string(), {
      list: { width: 170 },
      display: { kind: "link", to: "users", idField: "payerId" },
    }),
    payerAccountNumber: field(z.string(), { list: { width: 130 } }),
    /** What the payer paid, in sen (the ledger holds it as the wallet's debit). */
    amountSen: ledgerRowAmount(),
    status: ledgerRowStatus(true),
  },
  defaultSort: NEWEST_FIRST,
});

/** Business > Business (4): every merchant, its detail, fee rate, suspension and reinstatement. */
export const businesses = defineModule({
  name: "businesses",
  permission: PERMISSION.business,
  thing: { one: "Business", many: "Businesses" },
  i18n: "business",
  schemaId: "Business",
  paths: {
    list: "/business-mgmt",
    show: "/business-details",
    edit: "/business-details/:id/edit",
  },
  fields: BUSINESS_FIELDS,
  titleField: "name",
  defaultSort: NEWEST_FIRST,
  related: { payments: merchantPayments },
  actions: {
    suspend: remarkAction({
      verb: "suspend",
      done: "suspended",
      when: { status: ["approved"] },
      conflictCode: "BUSINESS_NOT_APPROVED",
      danger: true,
      audit: "business",
    }),
    reinstate: remarkAction({
      verb: "reinstate",
      done: "reinstated",
      when: { status: ["suspended"] },
      conflictCode: "BUSINESS_NOT_SUSPENDED",
      audit: "business",
    }),
  },
  edit: form({
    body: feeRateBody,
    audit: "business",
    inputs: { feeRateBp: { kind: "basisPoints" } },
    when: { status: ["pending", "approved", "suspended"] },
    conflictCode: "BUSINESS_REJECTED",
  }),
});

/** Business > Approval (4): the businesses waiting for a decision, decided one or in bulk. */
export const businessApproval = defineModule({
  name: "business-approval",
  viewOf: businesses,
  fixedFilters: { status: "pending" },
  permission: PERMISSION.business,
  thing: { one: "Business Approval", many: "Businesses" },
  i18n: "businessApproval",
  paths: { list: "/business-approval" },
  fields: BUSINESS_FIELDS,
  titleField: "name",
  defaultSort: [
    ["createdAt", "asc"],
    ["id", "asc"],
  ],
  actions: {
    decide: approvalDecision("business"),
  },
});

export type BusinessDto = ItemOf<typeof businesses>;
