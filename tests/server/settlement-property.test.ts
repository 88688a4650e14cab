/**
 * Settlement's promises under random histories (issue 12): for random payments, partial and full
 * refunds and settlement runs at random period ends, replayed day by day over three weeks, every
 * successful payment and every refund is settled exactly once, each settlement's figures are the
 * sums of the rows it covers, and per business the settled net equals the summary's days summed
 * (and the summary the ledger's own sums). Then two runs started at the same moment on one period
 * create each settlement once.
 */
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { businessDayOf } from "../../server/business-day";
import {
  merchantDays,
  settlementItems,
  settlements,
  walletTransactions as ledger,
} from "../../server/db/schema";
import { payFromWallet, refundPayment } from "../../server/services/ledger";
import { runSettlements } from "../../server/modules/settlements/rules";
import { insertBusiness, settlementsOf, summaryTotalsOf } from "./support/money-fixtures";
import { insertWalletUser, useUserDeskSuite } from "./support/user-fixtures";

const suite = useUserDeskSuite();
const DAY = 86_400_000;

type Step =
  | { kind: "pay"; shop: number; payer: number; sen: number }
  | { kind: "refund"; of: number; part: number }
  | { kind: "run"; lag: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("pay" as const),
      shop: fc.nat(2),
      payer: fc.nat(3),
      sen: fc.integer({ min: 1, max: 1_500 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("refund" as const),
      of: fc.nat(),
      part: fc.double({ min: 0.05, max: 1, noNaN: true }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("run" as const),
      lag: fc.integer({ min: 1, max: 4 }),
    }),
  },
);

/** A merchant's figures over ledger rows, summed in the test's own terms. */
const sumOf = (value: SQL, type: "payment" | "refund") =>
  sql<number>`coalesce(sum(${value}) filter (where ${ledger.type} = ${type}), 0)::bigint`.mapWith(
    Number,
  );
const ledgerFigures = {
  paymentCount: sql<number>`count(*) filter (where ${ledger.type} = 'payment')::int`,
  grossSen: sumOf(sql`-${ledger.amountSen}`, "payment"),
  refundSen: sumOf(sql`${ledger.amountSen}`, "refund"),
  feeSen: sumOf(sql`${ledger.feeSen}`, "payment"),
};

/** A day's steps, for 21 days. */
const history = fc.array(fc.array(step, { maxLength: 4 }), { minLength: 21, maxLength: 21 });

describe("settlement under random histories", () => {
  it("settles each payment and refund exactly once; per business, settled net = summary's net", async () => {
    await fc.assert(
      fc.asyncProperty(history, async (days) => {
        const db = suite.db;
        const shops = await Promise.all(
          [75, 150, 333].map((feeRateBp) => insertBusiness(db, { feeRateBp })),
        );
        const payers = await Promise.all([0, 1, 2, 3].map(() => insertWalletUser(db, 140_000)));
        const payments: Array<{ id: number; left: number }> = [];
        const start = Date.now() - 22 * DAY;
        for (const [index, steps] of days.entries()) {
          const dayStart = start + index * DAY;
          for (const [order, action] of steps.entries()) {
            const at = new Date(dayStart + order * 60_000 + 3 * 3_600_000);
            if (action.kind === "pay") {
              const row = await db.transaction((tx) =>
                payFromWallet(tx, {
                  userId: payers[action.payer]!.id,
                  businessId: shops[action.shop]!.id,
                  amountSen: action.sen,
                  at,
                }),
              );
              payments.push({ id: row.id, left: action.sen });
            } else if (action.kind === "refund" && payments.length > 0) {
              const payment = payments[action.of % payments.length]!;
              const sen = Math.max(1, Math.round(payment.left * action.part));
              if (payment.left === 0) continue;
              await db.transaction((tx) =>
                refundPayment(tx, payment.id, { amountSen: Math.min(sen, payment.left), at }),
              );
              payment.left -= Math.min(sen, payment.left);
            } else if (action.kind === "run") {
              const periodEnd = businessDayOf(new Date(dayStart - action.lag * DAY));
              await db.transaction((tx) => runSettlements(tx, { periodEnd, adminId: null, at }));
            }
          }
        }
        // The last run: everything up to yesterday.
        await db.transaction((tx) =>
          runSettlements(tx, {
            periodEnd: businessDayOf(new Date(Date.now() - DAY)),
            adminId: null,
          }),
        );

        const ids = shops.map((shop) => shop.id);
        const rows = await db
          .select({
            id: ledger.id,
            covered: sql<number>`(select count(*)::int from ${settlementItems} i
              where i.transaction_id = ${ledger.id})`,
          })
          .from(ledger)
          .where(and(inArray(ledger.businessId, ids), inArray(ledger.type, ["payment", "refund"])));
        for (const row of rows) expect(row.covered, `ledger row ${row.id}`).toBe(1);

        for (const shop of shops) {
          const made = await settlementsOf(db, shop.id);
          for (const settlement of made) {
            const [sums] = await db
              .select(ledgerFigures)
              .from(settlementItems)
              .innerJoin(ledger, eq(ledger.id, settlementItems.transactionId))
              .where(eq(settlementItems.settlementId, settlement.id));
            expect(settlement).toMatchObject(sums!);
          }
          const settledNet = made.reduce((sum, s) => sum + s.netSen, 0);
          const summary = await summaryTotalsOf(db, shop.id);
          expect(settledNet).toBe(summary.grossSen - summary.refundSen - summary.feeSen);
          // The summary kept row by row equals the ledger's own sums.
          const [ledgerSums] = await db
            .select(ledgerFigures)
            .from(ledger)
            .where(eq(ledger.businessId, shop.id));
          expect(summary).toMatchObject({
            grossSen: ledgerSums!.grossSen,
            refundSen: ledgerSums!.refundSen,
            feeSen: ledgerSums!.feeSen,
          });
        }
      }),
      { numRuns: 8 },
    );
  }, 300_000);

  it("creates each settlement once when two runs start at the same moment", async () => {
    const db = suite.db;
    const shops = await Promise.all([0, 1, 2, 3, 4].map(() => insertBusiness(db)));
    const payer = await insertWalletUser(db, 100_000);
    for (const shop of shops) {
      await db.transaction((tx) =>
        payFromWallet(tx, {
          userId: payer.id,
          businessId: shop.id,
          amountSen: 1_000,
          at: new Date(Date.now() - 3 * DAY),
        }),
      );
    }
    const periodEnd = businessDayOf(new Date(Date.now() - 2 * DAY));
    const results = await Promise.all(
      [0, 1].map(() => db.transaction((tx) => runSettlements(tx, { periodEnd, adminId: null }))),
    );
    const ids = shops.map((shop) => shop.id);
    const made = await db
      .select({ businessId: settlements.businessId, n: sql<number>`count(*)::int` })
      .from(settlements)
      .where(inArray(settlements.businessId, ids))
      .groupBy(settlements.businessId);
    expect(made).toHaveLength(5);
    for (const row of made) expect(row.n).toBe(1);
    // One run made them (with whatever else was due); the other found nothing left.
    expect(results.map((result) => result.created).sort((a, b) => a - b)[0]).toBe(0);
    const [days] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(merchantDays)
      .where(inArray(merchantDays.businessId, ids));
    expect(days?.n).toBe(5);
  });
});
