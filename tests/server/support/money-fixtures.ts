import { eq, sql } from "drizzle-orm";

import type { Db } from "../../../server/db";
import { businesses, merchantDays, settlementItems, settlements } from "../../../server/db/schema";
import { businessDayOf } from "../../../server/business-day";
import { insertWalletUser } from "./user-fixtures";

let sequence = 0;

/** A business of the test's own, owned by a fresh user: approved, at `feeRateBp` (150 = 1.5%). */
export async function insertBusiness(db: Db, values: Partial<typeof businesses.$inferInsert> = {}) {
  sequence += 1;
  const owner = await insertWalletUser(db);
  const [row] = await db
    .insert(businesses)
    .values({
      ownerUserId: owner.id,
      // Short: a statement's narrow description column holds "Refund · Fixture Shop 123" on one
      // line, where a longer name wraps and its words no longer read as one (a pid of six
      // digits, or a sequence that ran on through the files of a shared worker, did so).
      name: `Fixture Shop ${sequence}`,
      registrationNumber: `202600${String(sequence).padStart(6, "0")}-T`,
      category: "cafe",
      status: "approved",
      feeRateBp: 150,
      bankName: "Maybank",
      bankAccount: `5140${String(sequence).padStart(8, "0")}`,
      ...values,
    })
    .returning();
  if (!row) throw new Error("INSERT businesses returned no row");
  return row;
}

/** A business day (`YYYY-MM-DD`, BUSINESS_TIMEZONE) `days` before now. */
export const daysAgo = (days: number) => businessDayOf(new Date(Date.now() - days * 86_400_000));

/** An instant `days` (fractional) before now. */
export const atDaysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

/** A business's settlements, oldest first. */
export function settlementsOf(db: Db, businessId: number) {
  return db
    .select()
    .from(settlements)
    .where(eq(settlements.businessId, businessId))
    .orderBy(settlements.id);
}

/** What the summary holds for a business: its days' figures summed. */
export async function summaryTotalsOf(db: Db, businessId: number) {
  const [row] = await db
    .select({
      paymentCount: sql<number>`coalesce(sum(${merchantDays.paymentCount}), 0)::int`,
      grossSen: sql<number>`coalesce(sum(${merchantDays.grossSen}), 0)::bigint`.mapWith(Number),
      refundSen: sql<number>`coalesce(sum(${merchantDays.refundSen}), 0)::bigint`.mapWith(Number),
      feeSen: sql<number>`coalesce(sum(${merchantDays.feeSen}), 0)::bigint`.mapWith(Number),
    })
    .from(merchantDays)
    .where(eq(merchantDays.businessId, businessId));
  return row!;
}

/** The ids of the ledger rows a settlement covers. */
export async function itemsOf(db: Db, settlementId: number) {
  const rows = await db
    .select({ id: settlementItems.transactionId })
    .from(settlementItems)
    .where(eq(settlementItems.settlementId, settlementId));
  return rows.map((row) => row.id).sort((a, b) => a - b);
}
