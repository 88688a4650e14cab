/**
 * Settlement (docs/modules.md): the merchant summary by business day, and the settlements
 * with their payouts marked paid or failed; runs and invoices are in ./rules.ts, served by
 * ./endpoints.ts.
 */
import { eq, sql, type SQL } from "drizzle-orm";
import { date, pgTable } from "drizzle-orm/pg-core";

import { compileFilter } from "../../aggregation/filter";
import type { CollectionSpec, RawAggregationQuery } from "../../aggregation/types";
import type { RemarkBody } from "../../../src/shared/kit/module";
import {
  merchantSummary,
  settlements as settlementsDecl,
} from "../../../src/shared/modules/settlements";
import type { Tx } from "../../db";
import {
  businesses,
  merchantDays,
  settlementItems,
  settlements,
  users,
  walletTransactions as ledger,
} from "../../db/schema";
import { InvalidQueryError } from "../../errors";
import { adminNameOf, bindModule, type ActionContext } from "../../kit/bind";
import { maskedAccount } from "../../services/bank-accounts";
import { invoiceNumberOf } from "../../services/record-numbers";
import { settlementEndpoints } from "./endpoints";

/** Businesses by name, for the `record` filter of both lists. */
const businessOptions = { table: businesses, value: businesses.id, label: businesses.name };

/**
 * Each business day's summary figures across businesses, as the statement of `summaryTotals`
 * names them (a CTE, not a table).
 */
const summaryDays = pgTable("summary_days", { day: date("day", { mode: "string" }) });
/** What a filter on the summary's days alone can ask of `summaryDays`: the list's `day`. */
const summaryDaysSpec: CollectionSpec = {
  queryName: merchantSummary.queryName,
  fields: { day: { column: summaryDays.day, type: "dateRange", filterable: true } },
  defaultSort: [],
  tieBreaker: summaryDays.day,
};

/**
 * The summary's totals when its filter reads the day alone (its view of a month, and none): the
 * closed days' figures (closed-days.ts) and the open days' rows summed by day, instead of every
 * business's row of every day (a month: 13,700 rows, 1.8 ms). The filter is compiled against
 * these days by the list's own compiler, so a range means what it means on the list; a filter on
 * any other field or a search gives undefined, and the kit sums the rows.
 */
function summaryTotals(raw: RawAggregationQuery): SQL | undefined {
  let where: SQL | undefined;
  try {
    where = raw.filter === undefined ? undefined : compileFilter(summaryDaysSpec, raw.filter).where;
  } catch (error) {
    if (error instanceof InvalidQueryError) return undefined;
    throw error;
  }
  return sql`
    with summary_days as (
      select day, sum(n) filter (where figure = 'payment') as payment_count,
             sum(sen) filter (where figure = 'payment') as gross_sen,
             sum(n) filter (where figure = 'refund') as refund_count,
             sum(sen) filter (where figure = 'refund') as refund_sen,
             sum(sen) filter (where figure = 'fee') as fee_sen
      from closed_day_figures where figure in ('payment', 'refund', 'fee') group by day
      union all
      select day, sum(payment_count), sum(gross_sen), sum(refund_count), sum(refund_sen),
             sum(fee_sen)
      from merchant_days
      where day > coalesce((select max(day) from closed_days), '-infinity'::date)
      group by day)
    select coalesce(sum(payment_count), 0) as "paymentCount",
           coalesce(sum(gross_sen), 0) as "grossSen",
           coalesce(sum(refund_count), 0) as "refundCount",
           coalesce(sum(refund_sen), 0) as "refundSen",
           coalesce(sum(fee_sen), 0) as "feeSen",
           coalesce(sum(gross_sen), 0) - coalesce(sum(refund_sen), 0)
             - coalesce(sum(fee_sen), 0) as "netSen"
    from summary_days ${where ? sql`where ${where}` : sql``}`;
}

/** The summary: the roll-up rows, each with its business's name; net = gross − refunds − fees. */
export const merchantSummaryModule = bindModule(merchantSummary, {
  table: merchantDays,
  joins: [{ table: businesses, on: eq(businesses.id, merchantDays.businessId), exactlyOne: true }],
  columns: {
    businessName: businesses.name,
    netSen:
      sql<number>`(${merchantDays.grossSen} - ${merchantDays.refundSen} - ${merchantDays.feeSen})`.mapWith(
        Number,
      ),
  },
  options: { businessId: businessOptions },
  show: false,
  totalsOf: summaryTotals,
});

const invoiceNumber = invoiceNumberOf(settlements);

async function markPaid(
  tx: Tx,
  { actor, id, body }: ActionContext<{ bankReference: string }>,
): Promise<void> {
  await tx
    .update(settlements)
    .set({
      status: "paid",
      bankReference: body.bankReference,
      paidAt: new Date(),
      reviewerId: actor.id,
      reviewedAt: new Date(),
    })
    .where(eq(settlements.id, id));
}

async function markFailed(tx: Tx, { actor, id, body }: ActionContext<RemarkBody>): Promise<void> {
  await tx
    .update(settlements)
    .set({ status: "failed", remark: body.remark, reviewerId: actor.id, reviewedAt: new Date() })
    .where(eq(settlements.id, id));
}

/** The ledger rows a settlement covers: payments and refunds, the payer's account number. */
const items = {
  table: ledger,
  joins: [
    { table: settlementItems, on: eq(settlementItems.transactionId, ledger.id) },
    { table: users, on: eq(users.id, ledger.userId) },
  ],
  columns: {
    payerAccountNumber: users.accountNumber,
    amountSen: sql<number>`abs(${ledger.amountSen})`.mapWith(Number),
  },
  parent: settlementItems.settlementId,
};

export const settlementsModule = bindModule(settlementsDecl, {
  table: settlements,
  joins: [{ table: businesses, on: eq(businesses.id, settlements.businessId), exactlyOne: true }],
  columns: {
    invoiceNumber,
    businessName: businesses.name,
    businessRegistrationNumber: businesses.registrationNumber,
    bankAccount: maskedAccount(settlements.bankAccount),
    createdByName: adminNameOf(settlements.createdBy),
    reviewerName: adminNameOf(settlements.reviewerId),
  },
  options: { businessId: businessOptions },
  related: { items },
  actions: { markPaid, markFailed },
  endpoints: settlementEndpoints,
});
