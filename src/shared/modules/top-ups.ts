import { z } from "zod";

import { LEDGER_CHANNELS, LEDGER_STATUSES } from "../domain";
import { defineModule, field, form, type ItemOf, NEWEST_FIRST, remarkAction } from "../kit/module";
import {
  administratorLink,
  choice,
  instant,
  money,
  recordId,
  selfLink,
  userLink,
} from "../kit/presets";
import { positiveSen } from "../kit/types";
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
    id: recordId(),
    reference: selfLink({ list: 190 }),
    ...userLink({ name: { list: 170 } }),
    amountSen: money({ list: 120, filter: true, sort: true }),
    balanceAfterSen: money({ export: false }),
    channel: choice(z.enum(LEDGER_CHANNELS), { list: 110, sort: false, colours: CHANNEL_TAGS }),
    status: choice(z.enum(LEDGER_STATUSES), { list: 110, colours: LEDGER_STATUS_TAGS }),
    agentUserId: field(z.number().int().nullable(), { filter: "numberRange" }),
    agentName: field(z.string().nullable(), {
      show: true,
      display: { kind: "link", to: "users", idField: "agentUserId" },
    }),
    ...administratorLink("adminId", "adminName"),
    remark: field(z.string().nullable(), { show: true, export: true }),
    reversalReference: field(z.string().nullable(), { show: true, export: true }),
    reversalRemark: field(z.string().nullable(), { show: true }),
    createdAt: instant({ list: 160 }),
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
