import { z } from "zod";

import { LEDGER_CHANNELS, LEDGER_STATUSES } from "../domain";
import { defineModule, field, form, type ItemOf, NEWEST_FIRST, remarkAction } from "../kit/module";
import { isoDateTime, positiveSen } from "../kit/types";
import { PERMISSION } from "../permissions";
import { safeMultilineText, safeText } from "../text";

/** A staff counter top-up: cash taken at the counter, credited to a wallet. */
export const counterTopUpBody = z
  .strictObject({
    accountNumber: safeText().trim().min(1, "Account number is required").max(32),
    amountSen: positiveSen,
    channel: z.literal("counter"),
    remark: safeMultilineText().trim().max(500).optional(),
  })
  .meta({ id: "CounterTopUpBody" });
export type CounterTopUpBody = z.infer<typeof counterTopUpBody>;

const CHANNEL_TAGS = { fpx: "blue", card: "purple", agent: "cyan", counter: "orange" } as const;
/** A ledger row's status as a tag: one colour scheme for every list of ledger rows. */
export const LEDGER_STATUS_TAGS = {
  pending: "gold",
  success: "green",
  failed: "red",
  reversed: "grey",
} as const;

/** Top Up Transaction (33): money into wallets, by FPX, card, agent or at the counter. */
export const topUps = defineModule({
  name: "top-up-transactions",
  collection: "top-up-transactions",
  queryName: "topUpTransactions",
  menu: "top-up-transaction",
  permission: PERMISSION.topUp,
  thing: { one: "Top Up Transaction", many: "Top Up Transactions" },
  i18n: "topUp",
  schemaId: "TopUpTransaction",
  paths: {
    list: "/top-up-transaction",
    show: "/top-up-transaction",
    create: "/top-up-transaction/create",
  },
  fields: {
    id: field(z.number().int(), { filter: "numberRange", sort: true }),
    reference: field(z.string(), {
      list: { width: 190 },
      show: true,
      filter: "text",
      search: true,
      export: true,
      display: { kind: "link", to: "self", idField: "id" },
    }),
    userId: field(z.number().int(), { filter: "numberRange" }),
    accountNumber: field(z.string(), {
      list: { width: 130 },
      show: true,
      filter: "text",
      search: true,
      export: true,
      display: { kind: "link", to: "users", idField: "userId" },
    }),
    userName: field(z.string(), { list: { width: 170 }, show: true, export: true }),
    amountSen: field(z.number().int(), {
      list: { width: 120 },
      show: true,
      filter: "numberRange",
      sort: true,
      export: true,
      display: { kind: "money" },
    }),
    balanceAfterSen: field(z.number().int(), { show: true, display: { kind: "money" } }),
    channel: field(z.enum(LEDGER_CHANNELS), {
      list: { width: 110 },
      show: true,
      filter: "choice",
      export: true,
      display: { kind: "tag", colours: CHANNEL_TAGS },
    }),
    status: field(z.enum(LEDGER_STATUSES), {
      list: { width: 110 },
      show: true,
      filter: "choice",
      sort: true,
      export: true,
      display: { kind: "tag", colours: LEDGER_STATUS_TAGS },
    }),
    agentUserId: field(z.number().int().nullable(), { filter: "numberRange" }),
    agentName: field(z.string().nullable(), {
      show: true,
      display: { kind: "link", to: "users", idField: "agentUserId" },
    }),
    adminId: field(z.number().int().nullable()),
    adminName: field(z.string().nullable(), {
      show: true,
      display: { kind: "link", to: "administrators", idField: "adminId" },
    }),
    remark: field(z.string().nullable(), { show: true, export: true }),
    reversalReference: field(z.string().nullable(), { show: true, export: true }),
    reversalRemark: field(z.string().nullable(), { show: true }),
    createdAt: field(isoDateTime, {
      list: { width: 160 },
      show: true,
      filter: "dateRange",
      sort: true,
      export: true,
      display: { kind: "dateTime" },
    }),
  },
  titleField: "reference",
  defaultSort: NEWEST_FIRST,
  actions: {
    reverse: remarkAction({
      verb: "reverse",
      done: "reversed",
      when: { status: ["success"] },
      conflictCode: "ALREADY_REVERSED",
      danger: true,
      audit: "top_up",
    }),
  },
  create: form({
    body: counterTopUpBody,
    audit: "top_up",
    inputs: { amountSen: { kind: "money" }, remark: { kind: "multiline" } },
  }),
});

export type TopUpTransactionDto = ItemOf<typeof topUps>;
