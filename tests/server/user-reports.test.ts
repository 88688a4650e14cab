/**
 * User Report (issue 14) through HTTP on a real database: the list with its filters, the detail
 * with reporter, payment and business, the workflow (assign, start, resolve with a note, reject
 * with a note, reopen) and the 409 of every other transition, a dispute resolved with a refund
 * (a refund ledger row in the same transaction, at most what remains), bad input, permissions;
 * a refund above the wallet policy's refund threshold waits for a second approver (four eyes).
 */
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import {
  auditLog,
  changeRequests,
  userReports,
  wallets,
  walletTransactions,
} from "../../server/db/schema";
import { payFromWallet, refundPayment } from "../../server/services/ledger";
import { CHANGE_REASON_HEADER, type PendingApprovalAnswer } from "../../src/shared/kit/four-eyes";
import type { UserReportDto } from "../../src/shared/modules/user-reports";
import { auth, DEMO, login } from "./support/app";
import { A_REASON, approve, checkerToken } from "./support/four-eyes";
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

describe("a refund above the policy's refund threshold (four eyes)", () => {
  /** The finance checker: another administrator holding User Report (37), no super administrator. */
  let checker = { token: "", id: 0 };
  beforeAll(async () => {
    const session = await login(suite.app, DEMO.checker);
    checker = { token: session.token, id: session.admin.id };
  });

  /** A resolution sent by finance with `headers` (a reason for the approver unless told). */
  const resolve = (id: number, body: unknown, headers: Record<string, string> = A_REASON) =>
    suite.app.inject({
      method: "POST",
      url: `/v1/api/user-reports/${id}/resolve`,
      headers: { ...auth(finance), ...headers },
      payload: body as Record<string, unknown>,
    });
  const refundsOf = (paymentId: number) =>
    suite.db
      .select()
      .from(walletTransactions)
      .where(
        and(eq(walletTransactions.reversesId, paymentId), eq(walletTransactions.type, "refund")),
      );
  const requestsOf = (reportId: number) =>
    suite.db
      .select()
      .from(changeRequests)
      .where(and(eq(changeRequests.module, "user-reports"), eq(changeRequests.recordId, reportId)));

  /** A dispute about a payment of RM 300, in progress, and its resolution asking RM 250 back. */
  async function pendingResolution() {
    const { report, reporter } = await fileReport({ paidSen: 30_000 });
    await step(report.id, "start");
    const balance = await balanceOf(reporter.id);
    const made = await resolve(
      report.id,
      { note: "Refunded the double charge", refundSen: 25_000 },
      { [CHANGE_REASON_HEADER]: encodeURIComponent("Bank statement shows two debits") },
    );
    expect(made.statusCode, made.body).toBe(202);
    const { changeRequest } = made.json<PendingApprovalAnswer>();
    return { report, reporter, balance, request: changeRequest };
  }

  it("applies a refund at or below RM 200 at once: 200, the refund row, the wallet credited, no request", async () => {
    const { report, reporter } = await fileReport({ paidSen: 30_000 });
    await step(report.id, "start");
    const before = await balanceOf(reporter.id);
    const resolved = await resolve(report.id, { note: "Refunded at once", refundSen: 20_000 }, {});
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json()).toMatchObject({
      status: "resolved",
      refundSen: 20_000,
      refundableSen: 10_000,
    });
    expect(await refundsOf(report.paymentId!)).toMatchObject([
      { amountSen: 20_000, adminId: financeId, status: "success" },
    ]);
    expect(await balanceOf(reporter.id)).toBe(before + 20_000);
    expect(await requestsOf(report.id)).toEqual([]);
  });

  it("holds a refund above it (202): nothing refunded, the report still in progress, the request named", async () => {
    const { report, reporter, balance, request } = await pendingResolution();
    expect(request).toMatchObject({
      reference: expect.stringMatching(/^CR/),
      status: "pending",
      reason: "Bank statement shows two debits",
      amountSen: 25_000,
    });
    expect(await refundsOf(report.paymentId!)).toEqual([]);
    expect(await balanceOf(reporter.id)).toBe(balance);
    expect(await read(report.id)).toMatchObject({
      status: "in_progress",
      note: null,
      refundSen: null,
    });
    const [stored] = await requestsOf(report.id);
    expect(stored).toMatchObject({
      action: "resolve",
      verb: "resolve",
      rule: "above",
      thresholdSen: 20_000,
      permission: 37,
      makerId: financeId,
    });
    // The checker's preview: the report resolved and refunded, as the dry run made it.
    expect(stored!.after).toMatchObject({ status: "resolved", refundSen: 25_000 });
    // A second resolution of the same report waits for the first.
    expectError(
      await resolve(report.id, { note: "Again", refundSen: 21_000 }),
      409,
      "CHANGE_PENDING",
    );
  });

  it("is refused to its maker (403 SELF_APPROVAL); approved by another holder of code 37, refunds once and resolves, the audit naming both", async () => {
    const { report, reporter, balance, request } = await pendingResolution();
    expectError(await approve(suite.app, finance, request.id), 403, "SELF_APPROVAL");
    expect(await refundsOf(report.paymentId!)).toEqual([]);

    const approved = await approve(suite.app, checker.token, request.id, "Statement checked");
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: "approved", checkerId: checker.id });
    expect(await read(report.id)).toMatchObject({
      status: "resolved",
      note: "Refunded the double charge",
      refundSen: 25_000,
      refundableSen: 5_000,
      closedBy: financeId,
    });
    // The refund is the maker's, made once.
    expect(await refundsOf(report.paymentId!)).toMatchObject([
      { amountSen: 25_000, adminId: financeId, status: "success" },
    ]);
    expect(await balanceOf(reporter.id)).toBe(balance + 25_000);
    const [entry] = await suite.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.targetTable, "user_reports"),
          eq(auditLog.targetId, String(report.id)),
          eq(auditLog.action, "user_report.resolve"),
        ),
      );
    expect(entry).toMatchObject({
      adminId: financeId,
      approvedBy: checker.id,
      remark: "Refunded the double charge",
    });

    // Exactly once: a second approval finds it decided.
    const second = await approve(suite.app, await checkerToken(suite.app), request.id);
    expectError(second, 409, "REQUEST_DECIDED");
    expect(await refundsOf(report.paymentId!)).toHaveLength(1);
    expect(await balanceOf(reporter.id)).toBe(balance + 25_000);
  });

  it("refuses the approval of a report resolved meanwhile (409 REPORT_TRANSITION), changing nothing", async () => {
    const { report, reporter, balance, request } = await pendingResolution();
    // Resolved without a refund meanwhile: that needs no second approver.
    const meanwhile = await resolve(report.id, { note: "Settled with the shop" }, {});
    expect(meanwhile.statusCode, meanwhile.body).toBe(200);
    expectError(await approve(suite.app, checker.token, request.id), 409, "REPORT_TRANSITION");
    expect(await read(report.id)).toMatchObject({
      status: "resolved",
      note: "Settled with the shop",
      refundSen: null,
    });
    expect(await refundsOf(report.paymentId!)).toEqual([]);
    expect(await balanceOf(reporter.id)).toBe(balance);
    const [stored] = await requestsOf(report.id);
    expect(stored).toMatchObject({ status: "pending", failureCode: "REPORT_TRANSITION" });
  });

  it("refuses the approval when the payment was refunded meanwhile (409 RECORD_CHANGED), changing nothing", async () => {
    const { report, reporter, balance, request } = await pendingResolution();
    // Another refund of the same payment (another report, a counter refund) moved it on.
    await suite.db.transaction((tx) =>
      refundPayment(tx, report.paymentId!, { amountSen: 1_000, adminId: financeId }),
    );
    const refused = await approve(suite.app, checker.token, request.id);
    expectError(refused, 409, "RECORD_CHANGED");
    expect(refused.json()).toMatchObject({
      data: { fields: expect.arrayContaining(["refundableSen"]) },
    });
    expect(await read(report.id)).toMatchObject({ status: "in_progress", refundSen: null });
    expect(await refundsOf(report.paymentId!)).toMatchObject([{ amountSen: 1_000 }]);
    expect(await balanceOf(reporter.id)).toBe(balance + 1_000);
    expect((await requestsOf(report.id))[0]).toMatchObject({
      status: "pending",
      failureCode: "RECORD_CHANGED",
    });
  });

  it("refuses an over-refund or a refund of no dispute at once, storing no request", async () => {
    const { report, reporter } = await fileReport({ paidSen: 30_000 });
    await step(report.id, "start");
    const before = await balanceOf(reporter.id);
    const over = expectError(
      await resolve(report.id, { note: "Too much", refundSen: 30_001 }),
      409,
      "REFUND_EXCEEDS_PAYMENT",
    );
    expect(over).toMatchObject({ data: { remainingSen: 30_000 } });
    expect(await requestsOf(report.id)).toEqual([]);
    expect(await read(report.id)).toMatchObject({ status: "in_progress" });
    expect(await balanceOf(reporter.id)).toBe(before);

    const { report: noDispute } = await fileReport();
    await step(noDispute.id, "start");
    expectError(
      await resolve(noDispute.id, { note: "x", refundSen: 25_000 }),
      400,
      "REFUND_NOT_ALLOWED",
    );
    expect(await requestsOf(noDispute.id)).toEqual([]);
  });

  it("takes the note as the reason when no header gives one", async () => {
    const { report } = await fileReport({ paidSen: 30_000 });
    await step(report.id, "start");
    const made = await resolve(
      report.id,
      { note: "  Refund agreed by the shop  ", refundSen: 20_001 },
      {},
    );
    expect(made.statusCode, made.body).toBe(202);
    expect(made.json<PendingApprovalAnswer>().changeRequest).toMatchObject({
      reason: "Refund agreed by the shop",
      amountSen: 20_001,
    });
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
