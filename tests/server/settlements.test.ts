/**
 * Settlement (issue 12) through HTTP on a real database: the merchant summary by business day
 * with its totals and business filter, settlement runs (once per payment, refunds carried into
 * the next run, a period that has not ended refused), mark paid / mark failed, the payments a
 * settlement covers, the invoice's PDF, bad input that changes nothing, and permissions.
 */
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { closeDays, reopenDays } from "../../server/db/closed-days";
import { auditLog, businesses, settlements, walletTransactions } from "../../server/db/schema";
import { payFromWallet, refundPayment } from "../../server/services/ledger";
import { feeOfPayment } from "../../src/shared/money";
import { pdfText } from "../support/pdf";
import {
  atDaysAgo,
  daysAgo,
  insertBusiness,
  itemsOf,
  settlementsOf,
} from "./support/money-fixtures";
import {
  auditEntries,
  call,
  callApproved,
  expectError,
  expectNoPermission,
  insertWalletUser,
  useUserDeskSuite,
} from "./support/user-fixtures";

const suite = useUserDeskSuite();
let finance = "";

beforeAll(() => {
  finance = suite.finance;
});

const pay = (userId: number, businessId: number, amountSen: number, at: Date) =>
  suite.db.transaction((tx) => payFromWallet(tx, { userId, businessId, amountSen, at }));
const refund = (paymentId: number, amountSen: number, at: Date) =>
  suite.db.transaction((tx) => refundPayment(tx, paymentId, { amountSen, at, remark: "test" }));
const run = (periodEnd: unknown) =>
  call(suite.app, finance, "POST", "/api/settlements/run", { periodEnd });
const settlementCount = async () =>
  (await suite.db.select({ n: sql<number>`count(*)::int` }).from(settlements))[0]!.n;

interface ListBody<T> {
  totalCount: number;
  totals?: Record<string, number>;
  merchantTransactionSummary?: T[];
  settlements?: T[];
  items?: T[];
}
const query = (params: Record<string, unknown>) =>
  new URLSearchParams(
    Object.entries(params).map(([key, value]): [string, string] => [key, JSON.stringify(value)]),
  ).toString();

describe("GET /api/merchant-transaction-summary/aggregation", () => {
  it("has one row per business per business day, fees rounded half up per payment, net and totals exact", async () => {
    const shop = await insertBusiness(suite.db, { feeRateBp: 150 });
    const payer = await insertWalletUser(suite.db, 100_000);
    // 1.5% of 1,030 sen is 15.45 sen (→ 15), of 1,010 sen 15.15 (→ 15), of 2,100 sen 31.5 (→ 32).
    await pay(payer.id, shop.id, 1_030, atDaysAgo(3));
    const second = await pay(payer.id, shop.id, 1_010, atDaysAgo(3));
    await pay(payer.id, shop.id, 2_100, atDaysAgo(2));
    await refund(second.id, 500, atDaysAgo(2));
    const response = await call(
      suite.app,
      finance,
      "GET",
      `/api/merchant-transaction-summary/aggregation?${query({
        filter: { businessId: shop.id },
        sort: { day: 1 },
      })}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<ListBody<Record<string, unknown>>>();
    expect(body.merchantTransactionSummary).toEqual([
      {
        id: expect.any(Number),
        day: daysAgo(3),
        businessId: shop.id,
        businessName: shop.name,
        paymentCount: 2,
        grossSen: 2_040,
        refundCount: 0,
        refundSen: 0,
        feeSen: 30,
        netSen: 2_010,
      },
      {
        id: expect.any(Number),
        day: daysAgo(2),
        businessId: shop.id,
        businessName: shop.name,
        paymentCount: 1,
        grossSen: 2_100,
        refundCount: 1,
        refundSen: 500,
        feeSen: 32,
        netSen: 1_568,
      },
    ]);
    expect(body.totals).toEqual({
      paymentCount: 3,
      grossSen: 4_140,
      refundCount: 1,
      refundSen: 500,
      feeSen: 62,
      netSen: 3_578,
    });
    expect([1_030, 1_010, 2_100].map((sen) => feeOfPayment(sen, 150))).toEqual([15, 15, 32]);
  });

  it("totals every row the filter selects, not only the page", async () => {
    const response = await call(
      suite.app,
      finance,
      "GET",
      `/api/merchant-transaction-summary/aggregation?${query({
        filter: { day: { $gte: daysAgo(30) } },
        pagination: { page: 1, pageSize: 10 },
      })}`,
    );
    const body = response.json<ListBody<{ paymentCount: number }>>();
    expect(body.merchantTransactionSummary).toHaveLength(10);
    const all = await call(
      suite.app,
      finance,
      "GET",
      `/api/merchant-transaction-summary/aggregation?${query({
        filter: { day: { $gte: daysAgo(30) } },
        pagination: { page: 1, pageSize: 100 },
      })}`,
    );
    let pages = all.json<ListBody<{ paymentCount: number }>>();
    let sum = 0;
    for (let page = 1; ; page += 1) {
      pages = (
        await call(
          suite.app,
          finance,
          "GET",
          `/api/merchant-transaction-summary/aggregation?${query({
            filter: { day: { $gte: daysAgo(30) } },
            pagination: { page, pageSize: 100 },
          })}`,
        )
      ).json();
      const rows = pages.merchantTransactionSummary ?? [];
      sum += rows.reduce((total, row) => total + row.paymentCount, 0);
      if (rows.length < 100) break;
    }
    expect(body.totals?.paymentCount).toBe(sum);
    expect(sum).toBeGreaterThan(100); // the demo campus's month of payments
  });

  it("totals a filter on days alone from the closed days as the rows sum, closed or open", async () => {
    const totalsOf = async (filter: Record<string, unknown> | undefined) => {
      const params = filter === undefined ? {} : { filter };
      const response = await call(
        suite.app,
        finance,
        "GET",
        `/api/merchant-transaction-summary/aggregation?${query(params)}`,
      );
      expect(response.statusCode, response.body).toBe(200);
      return response.json<ListBody<unknown>>().totals;
    };
    const summed = async (where: ReturnType<typeof sql>) => {
      const [row] = (
        await suite.db.execute<Record<string, string>>(sql`
          select coalesce(sum(payment_count), 0) as "paymentCount",
                 coalesce(sum(gross_sen), 0) as "grossSen",
                 coalesce(sum(refund_count), 0) as "refundCount",
                 coalesce(sum(refund_sen), 0) as "refundSen",
                 coalesce(sum(fee_sen), 0) as "feeSen",
                 coalesce(sum(gross_sen - refund_sen - fee_sen), 0) as "netSen"
          from merchant_days where ${where}`)
      ).rows;
      return Object.fromEntries(Object.entries(row!).map(([key, value]) => [key, Number(value)]));
    };
    const ranges: Array<[Record<string, unknown> | undefined, ReturnType<typeof sql>]> = [
      [undefined, sql`true`],
      [
        { day: { $gte: daysAgo(30), $lte: daysAgo(1) } },
        sql`day between ${daysAgo(30)} and ${daysAgo(1)}`,
      ],
      [{ day: { $gte: daysAgo(3) } }, sql`day >= ${daysAgo(3)}`],
      [{ day: { $lt: daysAgo(10) } }, sql`day < ${daysAgo(10)}`],
      [{ day: { $gt: daysAgo(12), $lte: daysAgo(0) } }, sql`day > ${daysAgo(12)}`],
      [{ day: daysAgo(2) }, sql`day = ${daysAgo(2)}`],
      [{ day: { $in: [daysAgo(5), daysAgo(0)] } }, sql`day in (${daysAgo(5)}, ${daysAgo(0)})`],
    ];
    const shop = await insertBusiness(suite.db, { feeRateBp: 175 });
    const payer = await insertWalletUser(suite.db, 100_000);
    await pay(payer.id, shop.id, 1_230, atDaysAgo(2));
    await pay(payer.id, shop.id, 990, new Date());
    for (const phase of ["closed", "open"]) {
      if (phase === "closed") await closeDays(suite.db);
      else await reopenDays(suite.db);
      for (const [filter, where] of ranges) {
        const totals = await totalsOf(filter);
        expect(totals, `${phase} ${JSON.stringify(filter)}`).toEqual(await summed(where));
      }
    }
    expect((await totalsOf(ranges[1]![0]))?.paymentCount).toBeGreaterThan(100);
    await closeDays(suite.db);
  });

  it("offers businesses by name for its filter, and names a chosen one by id", async () => {
    const shop = await insertBusiness(suite.db, { name: "Zeta Noodle Corner" });
    const found = await call(
      suite.app,
      finance,
      "GET",
      "/api/merchant-transaction-summary/options/businessId?search=noodle%20corner",
    );
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json()).toEqual({ options: [{ value: shop.id, label: "Zeta Noodle Corner" }] });
    const named = await call(
      suite.app,
      finance,
      "GET",
      `/api/merchant-transaction-summary/options/businessId?ids=${shop.id}`,
    );
    expect(named.json()).toEqual({ options: [{ value: shop.id, label: "Zeta Noodle Corner" }] });
    // A wildcard is a character, not a pattern.
    const literal = await call(
      suite.app,
      finance,
      "GET",
      "/api/merchant-transaction-summary/options/businessId?search=%25",
    );
    expect(literal.json()).toEqual({ options: [] });
    for (const bad of ["ids=abc", "ids=1,,2", "search=a%00b", `search=${"x".repeat(101)}`, "x=1"]) {
      const refused = await call(
        suite.app,
        finance,
        "GET",
        `/api/merchant-transaction-summary/options/businessId?${bad}`,
      );
      expect(refused.statusCode, `${bad}: ${refused.body}`).toBe(400);
    }
  });

  it("is refused to the user desk (403), its options too", async () => {
    expectNoPermission(
      await call(suite.app, suite.desk, "GET", "/api/merchant-transaction-summary/aggregation"),
      "GET",
      "Merchant Transaction Summary",
    );
    expectNoPermission(
      await call(
        suite.app,
        suite.desk,
        "GET",
        "/api/merchant-transaction-summary/options/businessId",
      ),
      "GET",
      "Merchant Transaction Summary",
    );
  });
});

describe("POST /api/settlements/run", () => {
  it("settles each approved business's unsettled payments up to the day once, refunds after it in the next run", async () => {
    const shop = await insertBusiness(suite.db, { feeRateBp: 200 });
    const suspended = await insertBusiness(suite.db, { feeRateBp: 200 });
    const payer = await insertWalletUser(suite.db, 100_000);
    const early = await pay(payer.id, shop.id, 5_000, atDaysAgo(6));
    const late = await pay(payer.id, shop.id, 3_000, atDaysAgo(2));
    await pay(payer.id, suspended.id, 1_000, atDaysAgo(6));
    await suite.db
      .update(businesses)
      .set({ status: "suspended" })
      .where(eq(businesses.id, suspended.id));

    const first = await run(daysAgo(4));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ periodEnd: daysAgo(4), created: expect.any(Number) });
    const [settled] = await settlementsOf(suite.db, shop.id);
    expect(settled).toMatchObject({
      periodStart: daysAgo(6),
      periodEnd: daysAgo(4),
      paymentCount: 1,
      grossSen: 5_000,
      refundSen: 0,
      feeSen: 100,
      netSen: 4_900,
      status: "pending",
      bankName: "Maybank",
    });
    expect(await itemsOf(suite.db, settled!.id)).toEqual([early.id]);
    expect(await settlementsOf(suite.db, suspended.id)).toEqual([]);

    // The same day again: nothing is settled twice.
    const again = await run(daysAgo(4));
    expect(again.json()).toMatchObject({ created: 0, items: 0, netSen: 0 });

    // A refund of the settled payment, made after the run, is carried into the next one.
    const back = await refund(early.id, 1_200, atDaysAgo(1.5));
    const next = await run(daysAgo(1));
    expect(next.statusCode, next.body).toBe(200);
    const [, carried] = await settlementsOf(suite.db, shop.id);
    expect(carried).toMatchObject({
      periodStart: daysAgo(3),
      periodEnd: daysAgo(1),
      paymentCount: 1,
      grossSen: 3_000,
      refundCount: 1,
      refundSen: 1_200,
      feeSen: 60,
      netSen: 1_740,
    });
    expect(await itemsOf(suite.db, carried!.id)).toEqual([late.id, back.id].sort((a, b) => a - b));
    const [entry] = await auditEntries(suite.db, "settlements", carried!.id);
    expect(entry).toMatchObject({ action: "settlement.create", after: { netSen: 1_740 } });
  });

  it("refuses a period that has not ended, and anything not a date, changing nothing", async () => {
    const before = await settlementCount();
    for (const periodEnd of [daysAgo(0), daysAgo(-3)]) {
      const refused = await run(periodEnd);
      expectError(refused, 400, "PERIOD_NOT_ENDED");
      expect(refused.json()).toMatchObject({ data: { today: daysAgo(0) } });
    }
    for (const periodEnd of ["2026-02-30", "yesterday", "", 20261124, null, "2026-11-24\u0000"]) {
      expectError(await run(periodEnd), 400, "VALIDATION_ERROR");
    }
    const extra = await call(suite.app, finance, "POST", "/api/settlements/run", {
      periodEnd: daysAgo(1),
      businessId: 1,
    });
    expectError(extra, 400, "VALIDATION_ERROR");
    expect(await settlementCount()).toBe(before);
  });

  it("is refused to the user desk (403)", async () => {
    expectNoPermission(
      await call(suite.app, suite.desk, "POST", "/api/settlements/run", { periodEnd: daysAgo(1) }),
      "POST",
      "Settlement Run",
    );
  });
});

describe("a settlement's record, payments, decisions and invoice", () => {
  async function pendingSettlement() {
    const shop = await insertBusiness(suite.db, { feeRateBp: 100 });
    const payer = await insertWalletUser(suite.db, 50_000);
    await pay(payer.id, shop.id, 4_321, atDaysAgo(5));
    await pay(payer.id, shop.id, 1_234, atDaysAgo(5));
    expect((await run(daysAgo(4))).statusCode).toBe(200);
    const [settlement] = await settlementsOf(suite.db, shop.id);
    return { shop, settlement: settlement! };
  }

  it("answers the record with its invoice number and masked account, and the payments it covers", async () => {
    const { shop, settlement } = await pendingSettlement();
    const record = await call(suite.app, finance, "GET", `/api/settlements/${settlement.id}`);
    expect(record.statusCode, record.body).toBe(200);
    expect(record.json()).toMatchObject({
      invoiceNumber: `INV-${daysAgo(4).slice(0, 7).replace("-", "")}-${String(settlement.id).padStart(6, "0")}`,
      businessName: shop.name,
      businessRegistrationNumber: shop.registrationNumber,
      bankAccount: `•••• ${shop.bankAccount.slice(-4)}`,
      grossSen: 5_555,
      feeSen: 43 + 12,
      netSen: 5_500,
      createdByName: expect.any(String),
    });
    const items = await call(
      suite.app,
      finance,
      "GET",
      `/api/settlements/${settlement.id}/items?${query({ pagination: { page: 1, pageSize: 1 } })}`,
    );
    expect(items.statusCode, items.body).toBe(200);
    const body = items.json<ListBody<Record<string, unknown>>>();
    expect(body.totalCount).toBe(2);
    expect(body.items).toEqual([
      expect.objectContaining({
        type: "payment",
        amountSen: expect.any(Number),
        status: "success",
      }),
    ]);
  });

  it("is marked paid with a bank reference once, and failed only while pending", async () => {
    const { settlement } = await pendingSettlement();
    const url = `/api/settlements/${settlement.id}`;
    for (const bankReference of ["", "   ", "x".repeat(200), "MBB\u0000123", 42]) {
      expectError(
        await call(suite.app, finance, "POST", `${url}/mark-paid`, { bankReference }),
        400,
        "VALIDATION_ERROR",
      );
    }
    expect((await settlementsOf(suite.db, settlement.businessId))[0]).toMatchObject({
      status: "pending",
      bankReference: null,
    });
    const failed = await call(suite.app, finance, "POST", `${url}/mark-failed`, {
      remark: "Account closed",
    });
    expect(failed.statusCode, failed.body).toBe(200);
    expect(failed.json()).toMatchObject({ status: "failed", remark: "Account closed" });
    expectError(
      await call(suite.app, finance, "POST", `${url}/mark-failed`, { remark: "again" }),
      409,
      "SETTLEMENT_NOT_PENDING",
    );
    const paid = await callApproved(suite.app, finance, "POST", `${url}/mark-paid`, {
      bankReference: "  MBB20261124-0042  ",
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({
      status: "paid",
      bankReference: "MBB20261124-0042",
      paidAt: expect.any(String),
    });
    const again = await callApproved(suite.app, finance, "POST", `${url}/mark-paid`, {
      bankReference: "OTHER",
    });
    expectError(again, 409, "ALREADY_PAID");
    expectError(
      await call(suite.app, finance, "POST", `${url}/mark-failed`, { remark: "late" }),
      409,
      "SETTLEMENT_NOT_PENDING",
    );
    expect((await settlementsOf(suite.db, settlement.businessId))[0]).toMatchObject({
      bankReference: "MBB20261124-0042",
    });
    const [entry] = await auditEntries(suite.db, "settlements", settlement.id);
    expect(entry).toMatchObject({
      action: "settlement.mark-paid",
      remark: "MBB20261124-0042",
      before: { status: "failed" },
      after: { status: "paid" },
    });
  });

  it("gives its invoice as a PDF whose text holds the invoice number and the net, in either language", async () => {
    const { settlement } = await pendingSettlement();
    const record = (
      await call(suite.app, finance, "GET", `/api/settlements/${settlement.id}`)
    ).json<{ invoiceNumber: string }>();
    // Dates read as the console shows them, never as ISO text.
    for (const [lang, word, date] of [
      ["en-US", "Net payable", /\b\d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}\b/],
      ["cn-ZH", "应付净额", /\d{4}年\d{1,2}月\d{1,2}日/],
    ] as const) {
      const response = await call(
        suite.app,
        finance,
        "GET",
        `/api/settlements/${settlement.id}/invoice.pdf?lang=${lang}`,
      );
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toBe("application/pdf");
      expect(response.headers["content-disposition"]).toContain(`${record.invoiceNumber}.pdf`);
      const text = await pdfText(response.rawPayload);
      expect(text).toContain(record.invoiceNumber);
      expect(text).toContain("RM 55.00");
      expect(text).toContain(word);
      expect(text).toMatch(date);
      expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    }
  });

  it("answers 404 for an unknown settlement, 400 for a bad language, 403 to the user desk", async () => {
    expectError(
      await call(suite.app, finance, "GET", "/api/settlements/999999/invoice.pdf"),
      404,
      "NOT_FOUND",
    );
    const { settlement } = await pendingSettlement();
    expectError(
      await call(
        suite.app,
        finance,
        "GET",
        `/api/settlements/${settlement.id}/invoice.pdf?lang=fr`,
      ),
      400,
      "VALIDATION_ERROR",
    );
    expectNoPermission(
      await call(suite.app, suite.desk, "GET", `/api/settlements/${settlement.id}/invoice.pdf`),
      "GET",
      "Settlement Invoice",
    );
    expectNoPermission(
      await call(suite.app, suite.desk, "GET", "/api/settlements/aggregation"),
      "GET",
      "Settlements",
    );
  });
});

describe("the audit trail of a run", () => {
  it("names the run's administrator on each settlement it made", async () => {
    const [entry] = await suite.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "settlement.create"))
      .limit(1);
    expect(entry?.adminId).toEqual(expect.any(Number));
    const [payment] = await suite.db
      .select({ feeSen: walletTransactions.feeSen })
      .from(walletTransactions)
      .where(eq(walletTransactions.type, "payment"))
      .limit(1);
    expect(payment?.feeSen).toEqual(expect.any(Number));
  });
});
