/**
 * User Report (issue 14) through HTTP on a real database: the list with its filters, the detail
 * with reporter, payment and business, the workflow (assign, start, resolve with a note, reject
 * with a note, reopen) and the 409 of every other transition, a dispute resolved with a refund
 * (a refund ledger row in the same transaction, at most what remains), bad input, permissions.
 */
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { userReports, wallets, walletTransactions } from "../../server/db/schema";
import { payFromWallet } from "../../server/services/ledger";
import type { UserReportDto } from "../../src/shared/modules/user-reports";
import { DEMO, login } from "./support/app";
import { insertBusiness } from "./support/money-fixtures";
import {
  auditEntries,
  call,
  expectError,
  expectNoPermission,
  insertWalletUser,
  useUserDeskSuite,
} from "./support/user-fixtures";

const suite = useUserDeskSuite();
let finance = "";
let financeId = 0;

beforeAll(async () => {
  const session = await login(suite.app, DEMO.finance);
  finance = session.token;
  financeId = session.admin.id;
});

/** A report filed by a fresh user; a dispute about a payment of `paidSen` to a fresh business. */
async function fileReport(
  values: Partial<typeof userReports.$inferInsert> & { paidSen?: number } = {},
) {
  const { paidSen, ...rest } = values;
  const reporter = await insertWalletUser(suite.db, 50_000);
  let paymentId: number | null = null;
  let businessId: number | null = null;
  if (paidSen !== undefined) {
    const shop = await insertBusiness(suite.db);
    const payment = await suite.db.transaction((tx) =>
      payFromWallet(tx, { userId: reporter.id, businessId: shop.id, amountSen: paidSen }),
    );
    paymentId = payment.id;
    businessId = shop.id;
  }
  const [row] = await suite.db
    .insert(userReports)
    .values({
      reporterId: reporter.id,
      type: paidSen === undefined ? "app_problem" : "transaction_dispute",
      subject: "Charged twice at the canteen",
      description: "The till took my payment twice.",
      paymentId,
      businessId,
      ...rest,
    })
    .returning();
  return { report: row!, reporter };
}

const step = (id: number, verb: string, body: unknown = {}, token = finance) =>
  call(suite.app, token, "POST", `/api/user-reports/${id}/${verb}`, body);
const read = async (id: number) =>
  (await call(suite.app, finance, "GET", `/api/user-reports/${id}`)).json<UserReportDto>();
const balanceOf = async (userId: number) =>
  (await suite.db.select().from(wallets).where(eq(wallets.userId, userId)))[0]!.balanceSen;

describe("GET /api/user-reports", () => {
  it("shows a report with its reporter, payment and business, and lists it by filters", async () => {
    const { report, reporter } = await fileReport({ paidSen: 1_250, subject: "Zebra canteen" });
    const detail = await read(report.id);
    expect(detail).toMatchObject({
      reference: `RPT-${String(report.id).padStart(6, "0")}`,
      type: "transaction_dispute",
      status: "open",
      reporterId: reporter.id,
      reporterAccountNumber: reporter.accountNumber,
      reporterName: reporter.name,
      paymentReference: expect.stringMatching(/^PY/),
      paymentAmountSen: 1_250,
      refundableSen: 1_250,
      businessName: expect.stringContaining("Fixture Shop"),
      assigneeName: null,
    });
    const filter = {
      type: "transaction_dispute",
      status: { $in: ["open", "in_progress"] },
      createdAt: { $gte: new Date(Date.now() - 60_000).toISOString() },
      $search: "zebra",
    };
    const list = await call(
      suite.app,
      finance,
      "GET",
      `/api/user-reports/aggregation?filter=${encodeURIComponent(JSON.stringify(filter))}`,
    );
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json<{ userReports: UserReportDto[] }>().userReports.map((r) => r.id)).toEqual([
      report.id,
    ]);
  });

  it("filters by assignee and lists who may be assigned", async () => {
    const { report } = await fileReport();
    expect((await step(report.id, "assign", { assigneeId: financeId })).statusCode).toBe(200);
    const list = await call(
      suite.app,
      finance,
      "GET",
      `/api/user-reports/aggregation?filter=${encodeURIComponent(JSON.stringify({ assigneeId: financeId, id: report.id }))}`,
    );
    expect(list.json<{ userReports: UserReportDto[] }>().userReports).toHaveLength(1);
    const assignees = await call(suite.app, finance, "GET", "/api/user-reports/assignees");
    const names = assignees
      .json<{ assignees: Array<{ label: string }> }>()
      .assignees.map((a) => a.label);
    expect(names).toContain("Finance");
    expect(names).not.toContain("User Desk");
    expect(names).not.toContain("Banned Administrator");
  });
});

describe("the workflow", () => {
  it("assign → start → resolve with a note; reopen; start → reject with a note; each audited", async () => {
    const { report } = await fileReport();
    const assigned = await step(report.id, "assign", { assigneeId: financeId });
    expect(assigned.json()).toMatchObject({
      status: "open",
      assigneeId: financeId,
      assigneeName: "Finance",
    });
    expect((await step(report.id, "start")).json()).toMatchObject({ status: "in_progress" });
    const resolved = await step(report.id, "resolve", { note: "  Fixed in app 2.4  " });
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json()).toMatchObject({
      status: "resolved",
      note: "Fixed in app 2.4",
      closedBy: financeId,
      closedAt: expect.any(String),
      refundSen: null,
    });
    const reopened = await step(report.id, "reopen", { remark: "Still happening" });
    expect(reopened.json()).toMatchObject({ status: "open", note: null, closedAt: null });
    await step(report.id, "start");
    const rejected = await step(report.id, "reject", { note: "Not reproducible" });
    expect(rejected.json()).toMatchObject({ status: "rejected", note: "Not reproducible" });
    const actions = (await auditEntries(suite.db, "user_reports", report.id)).map((e) => e.action);
    expect(actions).toEqual([
      "user_report.reject",
      "user_report.start",
      "user_report.reopen",
      "user_report.resolve",
      "user_report.start",
      "user_report.assign",
    ]);
  });

  it("start makes whoever starts an unassigned report its assignee", async () => {
    const { report } = await fileReport();
    expect((await step(report.id, "start")).json()).toMatchObject({ assigneeId: financeId });
  });

  it("refuses every other transition with 409 REPORT_TRANSITION and changes nothing", async () => {
    const { report: open } = await fileReport();
    expectError(await step(open.id, "resolve", { note: "x" }), 409, "REPORT_TRANSITION");
    expectError(await step(open.id, "reopen", { remark: "x" }), 409, "REPORT_TRANSITION");
    const { report: done } = await fileReport({
      status: "rejected",
      note: "Duplicate",
      closedAt: new Date(),
    });
    for (const [verb, body] of [
      ["assign", { assigneeId: financeId }],
      ["start", {}],
      ["resolve", { note: "x" }],
      ["reject", { note: "x" }],
    ] as const) {
      const refused = expectError(await step(done.id, verb, body), 409, "REPORT_TRANSITION");
      expect(refused).toMatchObject({ data: { status: "rejected" } });
    }
    expect(await read(done.id)).toMatchObject({ status: "rejected", note: "Duplicate" });
    expect(await auditEntries(suite.db, "user_reports", done.id)).toHaveLength(0);
  });

  it("refuses bad bodies (400) and an assignee without User Report", async () => {
    const { report } = await fileReport();
    await step(report.id, "start");
    for (const body of [
      {},
      { note: "   " },
      { note: "x".repeat(1001) },
      { note: "a\u0000b" },
      { note: "ok", refundSen: -5 },
      { note: "ok", extra: 1 },
    ]) {
      expectError(await step(report.id, "resolve", body), 400, "VALIDATION_ERROR");
    }
    expectError(await step(report.id, "reject", { note: "" }), 400, "VALIDATION_ERROR");
    expectError(await step(report.id, "assign", { assigneeId: "1" }), 400, "VALIDATION_ERROR");
    expectError(
      await step(report.id, "assign", { assigneeId: suite.deskAdminId }),
      400,
      "ASSIGNEE_NOT_ALLOWED",
    );
    expectError(await step(report.id, "start", { now: true }), 400, "VALIDATION_ERROR");
    expect(await read(report.id)).toMatchObject({ status: "in_progress", assigneeId: financeId });
  });
});

describe("resolving a dispute with a refund", () => {
  it("refunds part of the payment as a refund ledger row in the same transaction, then at most what remains", async () => {
    const { report, reporter } = await fileReport({ paidSen: 2_000 });
    const before = await balanceOf(reporter.id);
    await step(report.id, "start");
    const resolved = await step(report.id, "resolve", {
      note: "Refunded the double charge",
      refundSen: 1_500,
    });
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json()).toMatchObject({
      status: "resolved",
      refundSen: 1_500,
      refundReference: expect.stringMatching(/^RF/),
      refundableSen: 500,
    });
    expect(await balanceOf(reporter.id)).toBe(before + 1_500);
    const [refund] = await suite.db
      .select()
      .from(walletTransactions)
      .where(eq(walletTransactions.reversesId, report.paymentId!));
    expect(refund).toMatchObject({ type: "refund", amountSen: 1_500, adminId: financeId });

    // Reopened, it may be refunded again, but never beyond what remains of the payment.
    await step(report.id, "reopen", { remark: "Third charge found" });
    await step(report.id, "start");
    const over = expectError(
      await step(report.id, "resolve", { note: "More", refundSen: 501 }),
      409,
      "REFUND_EXCEEDS_PAYMENT",
    );
    expect(over).toMatchObject({ data: { remainingSen: 500 } });
    // Nothing of the refused resolution stayed: still in progress, balance unchanged.
    expect(await read(report.id)).toMatchObject({ status: "in_progress", refundSen: 1_500 });
    expect(await balanceOf(reporter.id)).toBe(before + 1_500);
    const rest = await step(report.id, "resolve", { note: "The rest", refundSen: 500 });
    expect(rest.json()).toMatchObject({ refundSen: 500, refundableSen: null });
    expect(await balanceOf(reporter.id)).toBe(before + 2_000);
  });

  it("refuses a refund on a report that is not a payment dispute", async () => {
    const { report } = await fileReport();
    await step(report.id, "start");
    expectError(
      await step(report.id, "resolve", { note: "x", refundSen: 100 }),
      400,
      "REFUND_NOT_ALLOWED",
    );
    expect(await read(report.id)).toMatchObject({ status: "in_progress" });
    const refunds = await suite.db
      .select({ n: sql<number>`count(*)::int` })
      .from(walletTransactions)
      .where(eq(walletTransactions.remark, "x"));
    expect(refunds[0]!.n).toBe(0);
  });
});

describe("permissions", () => {
  it("refuses administrators without User Report (403) on every call", async () => {
    const { report } = await fileReport();
    expectNoPermission(
      await call(suite.app, suite.desk, "GET", "/api/user-reports/aggregation"),
      "GET",
      "User Reports",
    );
    expectNoPermission(await step(report.id, "start", {}, suite.desk), "POST", "User Report");
    expectNoPermission(
      await call(suite.app, suite.desk, "GET", "/api/user-reports/assignees"),
      "GET",
      "User Report Assignees",
    );
  });
});
