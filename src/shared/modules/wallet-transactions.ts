import { z } from "zod";

import { LEDGER_CHANNELS, LEDGER_STATUSES, LEDGER_TYPES } from "../domain";
import { defineModule, field, type ItemOf, NEWEST_FIRST, related } from "../kit/module";
import { administratorLink, choice, instant, money, recordId, text } from "../kit/presets";
import { PERMISSION } from "../permissions";
import { businesses } from "./businesses";
import { settlements } from "./settlements";
import {
  LEDGER_STATUS_TAGS,
  ledgerRowAmount,
  ledgerRowHead,
  ledgerRowStatus,
  topUps,
} from "./top-ups";

/** The console's path of a ledger row's page: `/wallet-transaction/<id>`, for any row. */
const PATHS = { list: "/wallet-transaction", show: "/wallet-transaction" } as const;
const NAME = "wallet-transactions";
const I18N = "walletTransaction";

/**
 * This module as a link's target before it is declared (its related list links its rows to
 * their own pages): found by its name among the declared modules, so it carries its code.
 */
const ledgerRowPage = { name: NAME, i18n: I18N, fields: {}, paths: PATHS };

const TYPE_TAGS = {
  top_up: "green",
  payment: "blue",
  refund: "orange",
  reversal: "magenta",
  adjustment: "purple",
} as const;
const CHANNEL_TAGS = { fpx: "blue", card: "purple", agent: "cyan", counter: "orange" } as const;

/** The rows that undo this one: a payment's refunds, a top-up's reversal. */
export const undoneBy = related({
  path: "undone-by",
  queryName: "undoneBy",
  i18n: I18N,
  schemaId: "WalletTransactionUndoneBy",
  fields: {
    ...ledgerRowHead(),
    // Each row opens on its own page.
    reference: field(z.string(), {
      list: { width: 190 },
      display: { kind: "link", to: ledgerRowPage, idField: "id" },
    }),
    type: field(z.enum(LEDGER_TYPES), {
      list: { width: 110 },
      display: { kind: "tag", colours: TYPE_TAGS },
    }),
    amountSen: ledgerRowAmount(),
    balanceAfterSen: field(z.number().int(), { list: { width: 120 }, display: { kind: "money" } }),
    status: ledgerRowStatus(),
  },
  defaultSort: NEWEST_FIRST,
});

/**
 * Wallet Transaction (0, the user's code: every row belongs to a wallet): the page of any ledger
 * row (a payment, a refund, a top-up's reversal, an adjustment, a parking fee; a top-up also has
 * its own page under Top Up Transaction, 33): who, what, when, the row it undoes and the rows
 * that undo it, the settlement that paid it out, and its audit history. A detail page only: it
 * is opened from links and the look-up by reference (GET /api/lookup), never listed.
 */
export const walletTransactions = defineModule({
  name: NAME,
  permission: PERMISSION.user,
  thing: { one: "Wallet Transaction", many: "Wallet Transactions" },
  i18n: I18N,
  schemaId: "WalletTransaction",
  paths: PATHS,
  detailOnly: true,
  fields: {
    id: recordId({ filter: false, sort: false }),
    reference: text({ display: { kind: "text", strong: true } }),
    type: choice(z.enum(LEDGER_TYPES), { filter: false, sort: false, colours: TYPE_TAGS }),
    status: choice(z.enum(LEDGER_STATUSES), {
      filter: false,
      sort: false,
      colours: LEDGER_STATUS_TAGS,
    }),
    channel: field(z.enum(LEDGER_CHANNELS).nullable(), {
      show: true,
      display: { kind: "tag", colours: CHANNEL_TAGS },
    }),
    /** The wallet's holder. */
    userId: field(z.number().int()),
    accountNumber: text({ display: { kind: "link", to: "users", idField: "userId" } }),
    userName: text(),
    amountSen: money(),
    feeSen: money({ nullable: true }),
    balanceAfterSen: money(),
    businessId: field(z.number().int().nullable()),
    businessName: text({
      nullable: true,
      display: { kind: "link", to: businesses, idField: "businessId" },
    }),
    agentUserId: field(z.number().int().nullable()),
    agentName: text({
      nullable: true,
      display: { kind: "link", to: "users", idField: "agentUserId" },
    }),
    ...administratorLink("adminId", "adminName"),
    remark: text({ nullable: true }),
    /** The row this one undoes (a refund's payment, a reversal's top-up). */
    reversesId: field(z.number().int().nullable()),
    reversesReference: text({
      nullable: true,
      display: { kind: "link", to: ledgerRowPage, idField: "reversesId" },
    }),
    /** A top-up's own page (Top Up Transaction, 33), with its receipts; none for other rows. */
    topUpId: field(z.number().int().nullable()),
    topUpReference: text({
      nullable: true,
      display: { kind: "link", to: topUps, idField: "topUpId" },
    }),
    /** The settlement that paid a payment or a refund out to its business, once settled. */
    settlementId: field(z.number().int().nullable()),
    invoiceNumber: text({
      nullable: true,
      display: { kind: "link", to: settlements, idField: "settlementId" },
    }),
    createdAt: instant({ filter: false, sort: false }),
  },
  titleField: "reference",
  defaultSort: NEWEST_FIRST,
  related: { undoneBy },
});

export type WalletTransactionDto = ItemOf<typeof walletTransactions>;

/** The longest reference the look-up reads (an invoice number is 17 characters, a ledger's 20). */
export const LOOKUP_REFERENCE_MAX_LENGTH = 64;

/**
 * `GET /api/lookup?reference=…`: the text as typed. The schema only bounds it; the route trims
 * it and refuses blank, longer than LOOKUP_REFERENCE_MAX_LENGTH or holding control or invisible
 * characters with 400 REFERENCE_INVALID.
 */
export const lookupQuery = z.strictObject({
  reference: z.string().max(256).describe("A reference, exactly (any case, spaces around ignored)"),
});

/** What a reference names: a ledger row by its type, a settlement (its invoice), a user report. */
export const LOOKUP_KINDS = [...LEDGER_TYPES, "settlement", "user_report"] as const;
export type LookupKind = (typeof LOOKUP_KINDS)[number];

/** Where a found reference opens: the module whose detail page shows it, and the record's id. */
export const lookupAnswer = z
  .object({
    kind: z.enum(LOOKUP_KINDS),
    /** The declared module (its `name`) whose detail page the caller may open. */
    module: z.string(),
    id: z.number().int(),
    /** The reference as the record holds it (upper case). */
    reference: z.string(),
  })
  .meta({ id: "LookupAnswer" });
export type LookupAnswer = z.infer<typeof lookupAnswer>;
