import { z } from "zod";

import { ADMIN_LANGUAGES, LEDGER_CHANNELS, LEDGER_TYPES } from "../domain";
import { field, NEWEST_FIRST, related } from "../kit/module";
import { choice, instant, money, recordId, text } from "../kit/presets";
import { isoDate } from "../schemas/common";
import { businesses } from "./businesses";
import { ledgerRowStatus } from "./top-ups";
import { walletTransactions } from "./wallet-transactions";

const TYPE_TAGS = {
  top_up: "green",
  payment: "blue",
  refund: "cyan",
  reversal: "orange",
  adjustment: "purple",
} as const;

/**
 * A wallet's statement: every ledger row of one user's wallet, newest first, each with the
 * balance it left (the running balance). Money in is positive, money out negative. The amount
 * filter reads the row's size either way ("about RM 50"), so staff need not know the sign.
 * Served at `GET /api/users/{id}/statement` under User (0); its words are `statement`.
 */
export const walletStatement = related({
  path: "statement",
  queryName: "statement",
  i18n: "statement",
  schemaId: "WalletStatementEntry",
  fields: {
    id: recordId({ filter: false }),
    createdAt: instant({ list: 160 }),
    /** The row on its own page (who, what, the rows that undo it, its history). */
    reference: text({
      list: 190,
      display: { kind: "link", to: walletTransactions, idField: "id" },
    }),
    type: choice(z.enum(LEDGER_TYPES), { list: 120, sort: false, colours: TYPE_TAGS }),
    channel: field(z.enum(LEDGER_CHANNELS).nullable(), { list: { width: 90 }, export: true }),
    businessId: field(z.number().int().nullable()),
    businessName: text({
      list: 170,
      nullable: true,
      display: { kind: "link", to: businesses, idField: "businessId" },
    }),
    amountSen: money({ list: 120, sort: true }),
    /** The row's size, money in or out: what the amount filter compares. */
    sizeSen: field(z.number().int(), {
      filter: "numberRange",
      control: true,
      filterOnly: true,
      display: { kind: "money" },
    }),
    balanceAfterSen: money({ list: 130 }),
    status: { ...ledgerRowStatus(), export: true },
    remark: text({ nullable: true }),
  },
  defaultSort: NEWEST_FIRST,
});

/** A printable statement covers at most this many business days. */
export const STATEMENT_MAX_DAYS = 366;

/** The period of a printable statement (business days, both included) and its language. */
export const statementQuery = z.strictObject({
  from: isoDate.describe("First business day of the statement (BUSINESS_TIMEZONE)"),
  to: isoDate.describe("Last business day of the statement, included"),
  lang: z.enum(ADMIN_LANGUAGES).optional().describe("The statement's language (default: yours)"),
});
export type StatementQuery = z.infer<typeof statementQuery>;
