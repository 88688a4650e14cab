/**
 * Look-up by reference (issue 37, item 2) through HTTP on a real database: every kind of
 * reference found and opened where the caller may open it (a top-up, a payment, a parking fee, a
 * refund, a reversal, an adjustment, a settlement by its invoice number, a user report), any case
 * and spaces around, wildcards taken literally, nothing found, bad text refused with a catalogue
 * code; and the Wallet Transaction detail page of any ledger row (who, what, the row it undoes and
 * the rows that undo it, its settlement, its history) behind the user's code.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import {
  settlementItems,
  settlements,
  userReports,
  walletTransactions,
} from "../../server/db/schema";
import {
  payFromWallet,
  payParkingFee,
  refundPayment,
  reverseTopUp,
  topUpWallet,
} from "../../server/services/ledger";
import type { LookupAnswer } from "../../src/shared/modules/wallet-transactions";
import { login, DEMO } from "./support/app";
import { atDaysAgo, insertBusiness } from "./support/money-fixtures";
import {
  call,
  expectError,
  expectNoPermission,
  insertWalletUser,
  useUserDeskSuite,
} from "./support/user-fixtures";

const suite = useUserDeskSuite();
let superToken = "";

interface Ledger {
  topUp: { id: number; reference: string };
  reversal: { id: number; reference: string };
  payment: { id: number; reference: string };
  parking: { id: number; reference: string };
  refund: { id: number; reference: string };
  adjustment: { id: number; reference: string };
  settlementId: number;
  invoiceNumber: string;
  reportId: number;
  reportReference: string;
}
const rows = {} as Ledger;

beforeAll(async () => {
  superToken = (await login(suite.app, DEMO.superAdmin)).token;
  const { db } = suite;
  const payer = await insertWalletUser(db, 10_000);
  const shop = await insertBusiness(db);
  const [adjustment] = await db
    .select()
    .from(walletTransactions)
    .where(eq(walletTransactions.userId, payer.id));
  rows.adjustment = adjustment!;
  const topUp = await db.transaction((tx) =>
    topUpWallet(tx, { userId: payer.id }, { amountSen: 2_000, channel: "fpx" }),
  );
  rows.topUp = topUp;
  rows.reversal = await db.transaction((tx) =>
    reverseTopUp(
      tx,
      { id: topUp.id, userId: payer.id, amountSen: 2_000, reference: topUp.reference },
      { adminId: suite.deskAdminId, remark: "paid twice" },
    ),
  );
  rows.payment = await db.transaction((tx) =>
    payFromWallet(tx, {
      userId: payer.id,
      businessId: shop.id,
      amountSen: 1_200,
      at: atDaysAgo(2),
    }),
  );
  rows.refund = await db.transaction((tx) =>
    refundPayment(tx, rows.payment.id, { amountSen: 200, at: atDaysAgo(1), remark: "cold" }),
  );
  rows.parking = await db.transaction((tx) =>
    payParkingFee(tx, { userId: payer.id, amountSen: 300 }),
  );
  const [settlement] = await db
    .insert(settlements)
    .values({
      businessId: shop.id,
      periodStart: "2026-10-01",
      periodEnd: "2026-10-31",
      paymentCount: 1,
      grossSen: 1_200,
      refundCount: 0,
      refundSen: 0,
      feeSen: 18,
      netSen: 1_182,
      bankName: "Maybank",
      bankAccount: "514000000001",
    })
    .returning();
  rows.settlementId = settlement!.id;
  rows.invoiceNumber = `INV-202610-${String(settlement!.id).padStart(6, "0")}`;
  await db
    .insert(settlementItems)
    .values({ transactionId: rows.payment.id, settlementId: settlement!.id });
  const [report] = await db
    .insert(userReports)
    .values({
      reporterId: payer.id,
      type: "transaction_dispute",
      subject: "Charged twice",
      description: "The till took my payment twice.",
      paymentId: rows.payment.id,
      businessId: shop.id,
    })
    .returning();
  rows.reportId = report!.id;
  rows.reportReference = `RPT-${String(report!.id).padStart(6, "0")}`;
});

const lookUp = (token: string, reference: string) =>
  call(suite.app, token, "GET", `/api/lookup?${new URLSearchParams({ reference }).toString()}`);

async function found(token: string, reference: string): Promise<LookupAnswer> {
  const response = await lookUp(token, reference);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<LookupAnswer>();
}

describe("GET /api/lookup", () => {
  it("finds every kind of reference, and says which page opens it", async () => {
    const expected: Array<[string, Omit<LookupAnswer, "reference">]> = [
      [rows.topUp.reference, { kind: "top_up", module: "top-up-transactions", id: rows.topUp.id }],
      [
        rows.reversal.reference,
        { kind: "reversal", module: "wallet-transactions", id: rows.reversal.id },
      ],
      [
        rows.payment.reference,
        { kind: "payment", module: "wallet-transactions", id: rows.payment.id },
      ],
      [
        rows.parking.reference,
        { kind: "payment", module: "wallet-transactions", id: rows.parking.id },
      ],
      [
        rows.refund.reference,
        { kind: "refund", module: "wallet-transactions", id: rows.refund.id },
      ],
      [
        rows.adjustment.reference,
        { kind: "adjustment", module: "wallet-transactions", id: rows.adjustment.id },
      ],
      [rows.invoiceNumber, { kind: "settlement", module: "settlements", id: rows.settlementId }],
      [rows.reportReference, { kind: "user_report", module: "user-reports", id: rows.reportId }],
    ];
    for (const [reference, answer] of expected) {
      expect(await found(superToken, reference), reference).toEqual({ ...answer, reference });
    }
  });

  it("reads any case and ignores spaces around, answering the reference as stored", async () => {
    const typed = `  ${rows.payment.reference.toLowerCase()}\t`;
    expect(await found(superToken, typed)).toMatchObject({
      id: rows.payment.id,
      reference: rows.payment.reference,
    });
    expect(await found(superToken, ` ${rows.invoiceNumber.toLowerCase()} `)).toMatchObject({
      id: rows.settlementId,
    });
  });

  it("matches whole references only: a part, a wildcard or a pattern finds nothing", async () => {
    const part = rows.payment.reference.slice(0, 12);
    for (const reference of [
      part,
      `${part}%`,
      "%",
      "PY%",
      "_".repeat(rows.payment.reference.length),
      `${rows.payment.reference.slice(0, -1)}_`,
      "INV-%",
      `INV-202611-${String(rows.settlementId).padStart(6, "0")}`, // the wrong month
      "RPT-999999",
      "TU20260101NOSUCHREF0",
      "' or 1=1 --",
    ]) {
      expectError(await lookUp(superToken, reference), 404, "REFERENCE_NOT_FOUND");
    }
  });

  it("refuses blank, too long and control characters with REFERENCE_INVALID", async () => {
    const cases: Array<[string, string]> = [
      ["", "blank"],
      ["   ", "blank"],
      ["P".repeat(65), "tooLong"],
      ["PY\u0000X", "characters"],
      ["PY\u001fX", "characters"],
      ["\u200b", "characters"],
    ];
    for (const [reference, reason] of cases) {
      const body = expectError(await lookUp(superToken, reference), 400, "REFERENCE_INVALID");
      expect((body as { data?: { reason?: string } }).data?.reason, reference).toBe(reason);
    }
    // Beyond the schema's bound, and unknown parameters: the usual validation error.
    expectError(await lookUp(superToken, "P".repeat(300)), 400, "VALIDATION_ERROR");
    const extra = await call(suite.app, superToken, "GET", "/api/lookup?reference=X&other=1");
    expectError(extra, 400, "VALIDATION_ERROR");
    const none = await call(suite.app, superToken, "GET", "/api/lookup");
    expectError(none, 400, "VALIDATION_ERROR");
  });

  it("opens a record only where the caller's codes let them; elsewhere it is not found", async () => {
    // The user desk (code 0 only): ledger rows, a top-up as a ledger row; no settlement, no report.
    expect(await found(suite.desk, rows.topUp.reference)).toMatchObject({
      kind: "top_up",
      module: "wallet-transactions",
      id: rows.topUp.id,
    });
    expect(await found(suite.desk, rows.refund.reference)).toMatchObject({
      module: "wallet-transactions",
    });
    for (const reference of [rows.invoiceNumber, rows.reportReference]) {
      expectError(await lookUp(suite.desk, reference), 404, "REFERENCE_NOT_FOUND");
    }
    // Finance (33, 35, 37, no 0): top-ups, settlements and reports; other ledger rows not found,
    // the same answer as a reference nobody has.
    expect(await found(suite.finance, rows.topUp.reference)).toMatchObject({
      module: "top-up-transactions",
    });
    expect(await found(suite.finance, rows.invoiceNumber)).toMatchObject({
      module: "settlements",
    });
    expect(await found(suite.finance, rows.reportReference)).toMatchObject({
      module: "user-reports",
    });
    const hidden = await lookUp(suite.finance, rows.payment.reference);
    const missing = await lookUp(suite.finance, "PY20260101NOSUCHREF0");
    expectError(hidden, 404, "REFERENCE_NOT_FOUND");
    expect(hidden.json()).toEqual(missing.json());
  });

  it("needs a session", async () => {
    const response = await suite.app.inject({
      method: "GET",
      url: `/v1/api/lookup?reference=${rows.payment.reference}`,
    });
    expect(response.statusCode).toBe(401);
  });
});

describe("GET /api/wallet-transactions/{id}", () => {
  it("shows a payment: who, what, when, its business and the settlement that paid it out", async () => {
    const response = await call(
      suite.app,
      suite.desk,
      "GET",
      `/api/wallet-transactions/${rows.payment.id}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      id: rows.payment.id,
      reference: rows.payment.reference,
      type: "payment",
      status: "success",
      amountSen: -1_200,
      feeSen: 18,
      businessName: expect.stringMatching(/^Fixture Shop/),
      reversesId: null,
      topUpId: null,
      settlementId: rows.settlementId,
      invoiceNumber: rows.invoiceNumber,
    });
  });

  it("links a refund to its payment, and lists the payment's refunds", async () => {
    const refund = await call(
      suite.app,
      suite.desk,
      "GET",
      `/api/wallet-transactions/${rows.refund.id}`,
    );
    expect(refund.json()).toMatchObject({
      type: "refund",
      reversesId: rows.payment.id,
      reversesReference: rows.payment.reference,
    });
    const undone = await call(
      suite.app,
      suite.desk,
      "GET",
      `/api/wallet-transactions/${rows.payment.id}/undone-by`,
    );
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json<{ undoneBy: unknown[] }>().undoneBy).toEqual([
      expect.objectContaining({ id: rows.refund.id, type: "refund", amountSen: 200 }),
    ]);
  });

  it("opens any ledger row, a top-up too (linked to its own page), with its reversal", async () => {
    const topUp = await call(
      suite.app,
      suite.desk,
      "GET",
      `/api/wallet-transactions/${rows.topUp.id}`,
    );
    expect(topUp.json()).toMatchObject({
      type: "top_up",
      status: "reversed",
      topUpId: rows.topUp.id,
      topUpReference: rows.topUp.reference,
    });
    const undone = await call(
      suite.app,
      suite.desk,
      "GET",
      `/api/wallet-transactions/${rows.topUp.id}/undone-by`,
    );
    expect(undone.json<{ undoneBy: Array<{ id: number }> }>().undoneBy.map((r) => r.id)).toEqual([
      rows.reversal.id,
    ]);
    const history = await call(
      suite.app,
      suite.desk,
      "GET",
      `/api/wallet-transactions/${rows.topUp.id}/audit`,
    );
    expect(history.statusCode, history.body).toBe(200);
  });

  it("is behind the user's code, has no list, and answers 404 for an unknown row", async () => {
    expectNoPermission(
      await call(suite.app, suite.finance, "GET", `/api/wallet-transactions/${rows.payment.id}`),
      "GET",
      "Single Wallet Transaction",
    );
    const list = await call(suite.app, superToken, "GET", "/api/wallet-transactions/aggregation");
    expect(list.statusCode).not.toBe(200);
    expectError(
      await call(suite.app, suite.desk, "GET", "/api/wallet-transactions/2147483647"),
      404,
      "NOT_FOUND",
    );
  });
});
