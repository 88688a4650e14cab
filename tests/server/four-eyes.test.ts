/**
 * Four eyes (issue 32) through HTTP on a real database: a declared change that needs a second
 * approver becomes a change request; another administrator holding its codes approves it (the
 * change applied then, once, its audit naming both) or rejects it (nothing changes); never its
 * maker, by any session or path; a record or an amount that moved on refuses the approval; a
 * request expires, may be withdrawn by its maker only, and bad reasons change nothing.
 */
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import {
  administrators,
  auditLog,
  changeRequests,
  settlements,
  wallets,
  walletTransactions,
} from "../../server/db/schema";
import { topUpWallet } from "../../server/services/ledger";
import { CHANGE_REASON_HEADER } from "../../src/shared/kit/four-eyes";
import { auth, createAdmin, DEMO, login } from "./support/app";
import { approve } from "./support/four-eyes";
import { call, expectError, insertWalletUser, useUserDeskSuite } from "./support/user-fixtures";

const suite = useUserDeskSuite();
/** Finance (33, 35, 37) makes; the finance checker (the same codes) and the approver check. */
let finance = { token: "", id: 0 };
let checker = { token: "", id: 0 };
let approver = { token: "", id: 0 };
let superAdmin = { token: "", id: 0 };

beforeAll(async () => {
  const session = (credentials: { email: string; password: string }) =>
    login(suite.app, credentials).then(({ token, admin }) => ({ token, id: admin.id }));
  // One at a time: logins at once from one address are limited.
  finance = await session(DEMO.finance);
  checker = await session(DEMO.checker);
  approver = await session(DEMO.approver);
  superAdmin = await session(DEMO.superAdmin);
}, 60_000);

const reasonHeader = (reason: string) => ({ [CHANGE_REASON_HEADER]: encodeURIComponent(reason) });

/** A counter top-up of `amountSen` by finance, with a reason. */
const counterTopUp = (accountNumber: string, amountSen: number, token = finance.token) =>
  suite.app.inject({
    method: "POST",
    url: "/v1/api/top-up-transactions",
    headers: { ...auth(token), ...reasonHeader("Cash paid at the counter") },
    payload: { accountNumber, amountSen, channel: "counter" },
  });

const balanceOf = async (userId: number) => {
  const [wallet] = await suite.db.select().from(wallets).where(eq(wallets.userId, userId));
  return wallet!.balanceSen;
};

const ledgerSumOf = async (userId: number) => {
  const [row] = await suite.db
    .select({ sum: sql<number>`coalesce(sum(${walletTransactions.amountSen}), 0)`.mapWith(Number) })
    .from(walletTransactions)
    .where(and(eq(walletTransactions.userId, userId), eq(walletTransactions.status, "success")));
  return row!.sum;
};

const requestOf = async (id: number) => {
  const [row] = await suite.db.select().from(changeRequests).where(eq(changeRequests.id, id));
  return row!;
};

const decide = (token: string, id: number, action: "approve" | "reject", remark = "Checked") =>
  suite.app.inject({
    method: "PATCH",
    url: `/v1/api/change-requests/${id}`,
    headers: auth(token),
    payload: { action, remark },
  });

/** A pending counter top-up of RM 300 (above the RM 200 threshold) for a fresh wallet. */
async function pendingTopUp(amountSen = 30_000) {
  const user = await insertWalletUser(suite.db, 1_000);
  const response = await counterTopUp(user.accountNumber, amountSen);
  expect(response.statusCode, response.body).toBe(202);
  const { changeRequest } = response.json<{ changeRequest: { id: number; reference: string } }>();
  return { user, request: changeRequest };
}

describe("a change that needs a second approver", () => {
  it("applies at once at or below the threshold, as before: 201 and the wallet credited", async () => {
    const user = await insertWalletUser(suite.db, 1_000);
    const response = await counterTopUp(user.accountNumber, 20_000);
    expect(response.statusCode, response.body).toBe(201);
    expect(await balanceOf(user.id)).toBe(21_000);
  });

  it("above it becomes a pending request (202) that credits nothing, with its reason and amount", async () => {
    const { user, request } = await pendingTopUp();
    expect(request.reference).toMatch(/^CR/);
    expect(await balanceOf(user.id)).toBe(1_000);
    const shown = await call(suite.app, checker.token, "GET", `/api/change-requests/${request.id}`);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json()).toMatchObject({
      status: "pending",
      module: "top-up-transactions",
      action: "create",
      reason: "Cash paid at the counter",
      amountSen: 30_000,
      rule: "above",
      thresholdSen: 20_000,
      makerId: finance.id,
      makerName: "Finance",
    });
    // The checker's preview: the new top-up's fields as the dry run made them.
    const changes = shown.json<{ changes: Array<{ field: string; to: unknown }> }>().changes;
    // Not the reference the dry run drew: the approval draws the top-up's own.
    expect(changes.map((change) => change.field)).not.toContain("reference");
    expect(changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: "amountSen", to: 30_000 }),
        expect.objectContaining({ field: "accountNumber", to: user.accountNumber }),
      ]),
    );
  });

  it("approved by another administrator: applied once, the audit naming the maker and the checker", async () => {
    const { user, request } = await pendingTopUp();
    const decided = await decide(checker.token, request.id, "approve", "Slip seen");
    expect(decided.statusCode, decided.body).toBe(200);
    const approved = decided.json<{ status: string; checkerId: number; resultId: number }>();
    expect(approved).toMatchObject({ status: "approved", checkerId: checker.id });
    expect(await balanceOf(user.id)).toBe(31_000);
    // The request now names and links the top-up the approval made (none existed before).
    const [topUp] = await suite.db
      .select({ reference: walletTransactions.reference })
      .from(walletTransactions)
      .where(eq(walletTransactions.id, approved.resultId));
    expect(approved).toMatchObject({ recordId: approved.resultId, recordTitle: topUp!.reference });
    const [entry] = await suite.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.targetTable, "wallet_transactions"),
          eq(auditLog.targetId, String(approved.resultId)),
        ),
      );
    expect(entry).toMatchObject({
      action: "top_up.create",
      adminId: finance.id,
      approvedBy: checker.id,
    });
    // A second approval finds it decided.
    expectError(await decide(approver.token, request.id, "approve"), 409, "REQUEST_DECIDED");
    expect(await balanceOf(user.id)).toBe(31_000);
  });

  it("rejected: nothing changes, and it cannot be approved after", async () => {
    const { user, request } = await pendingTopUp();
    const decided = await decide(checker.token, request.id, "reject", "No slip");
    expect(decided.statusCode, decided.body).toBe(200);
    expect(decided.json()).toMatchObject({ status: "rejected", remark: "No slip" });
    expectError(await decide(approver.token, request.id, "approve"), 409, "REQUEST_DECIDED");
    expect(await balanceOf(user.id)).toBe(1_000);
  });

  it("is never approved by its maker: not in a second session, not as a super administrator", async () => {
    const { user, request } = await pendingTopUp();
    const second = await login(suite.app, DEMO.finance);
    for (const token of [finance.token, second.token]) {
      expectError(await decide(token, request.id, "approve"), 403, "SELF_APPROVAL");
      expectError(await decide(token, request.id, "reject"), 403, "SELF_APPROVAL");
    }
    // A super administrator's own request too.
    const target = await createAdmin(suite.app, superAdmin.token, [0]);
    const own = await suite.app.inject({
      method: "PATCH",
      url: `/v1/api/administrators/${target.admin.id}/permissions`,
      headers: { ...auth(superAdmin.token), ...reasonHeader("Joins the user desk") },
      payload: { permissions: [0, 4] },
    });
    expect(own.statusCode, own.body).toBe(202);
    const ownId = own.json<{ changeRequest: { id: number } }>().changeRequest.id;
    expectError(await decide(superAdmin.token, ownId, "approve"), 403, "SELF_APPROVAL");
    expect((await requestOf(request.id)).status).toBe("pending");
    expect(await balanceOf(user.id)).toBe(1_000);
    expect(await approve(suite.app, approver.token, ownId)).toHaveProperty("statusCode", 200);
    const [changed] = await suite.db
      .select({ permissions: administrators.permissions })
      .from(administrators)
      .where(eq(administrators.id, target.admin.id));
    expect(changed!.permissions).toEqual([0, 4]);
  });

  it("through the seed's alias path too: the same request, the same refusal of its maker", async () => {
    const target = await createAdmin(suite.app, superAdmin.token, [0]);
    const response = await suite.app.inject({
      method: "POST",
      url: "/v1/user-mgmt/change-admin-permission",
      headers: { ...auth(superAdmin.token), ...reasonHeader("Audit rotation") },
      payload: { admin_id: target.admin.id, permission_codes: [0, 12] },
    });
    expect(response.statusCode, response.body).toBe(202);
    const id = response.json<{ changeRequest: { id: number } }>().changeRequest.id;
    expect(await requestOf(id)).toMatchObject({ module: "administrators", action: "permissions" });
    expectError(await decide(superAdmin.token, id, "approve"), 403, "SELF_APPROVAL");
  });

  it("needs a checker holding the module's code: others do not see it, and are refused", async () => {
    const { request } = await pendingTopUp();
    const adminOnly = await createAdmin(suite.app, superAdmin.token, [8]);
    expectError(
      await call(suite.app, adminOnly.token, "GET", `/api/change-requests/${request.id}`),
      404,
      "NOT_FOUND",
    );
    expectError(await decide(adminOnly.token, request.id, "approve"), 403, "NOT_A_CHECKER");
    const list = await call(suite.app, suite.desk, "GET", "/api/change-requests/aggregation");
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json<{ changeRequests: unknown[] }>().changeRequests).toEqual([]);
  });

  it("one open request per record: a second answers 409 CHANGE_PENDING naming the first", async () => {
    const user = await insertWalletUser(suite.db, 0);
    const row = await suite.db.transaction((tx) =>
      topUpWallet(
        tx,
        { accountNumber: user.accountNumber },
        {
          amountSen: 5_000,
          channel: "counter",
          adminId: finance.id,
        },
      ),
    );
    const reverse = () =>
      suite.app.inject({
        method: "POST",
        url: `/v1/api/top-up-transactions/${row.id}/reverse`,
        headers: auth(finance.token),
        payload: { remark: "Keyed twice" },
      });
    const first = await reverse();
    expect(first.statusCode, first.body).toBe(202);
    const { reference } = first.json<{ changeRequest: { reference: string } }>().changeRequest;
    const second = await reverse();
    expectError(second, 409, "CHANGE_PENDING");
    expect(second.json()).toMatchObject({ data: { reference } });
    expect(await balanceOf(user.id)).toBe(5_000);
  });

  it("refuses the approval when the record moved on (409 RECORD_CHANGED), changing nothing, and keeps why", async () => {
    const target = await createAdmin(suite.app, superAdmin.token, [0]);
    const response = await suite.app.inject({
      method: "PATCH",
      url: `/v1/api/administrators/${target.admin.id}/permissions`,
      headers: { ...auth(superAdmin.token), ...reasonHeader("Needs Top Up") },
      payload: { permissions: [0, 33] },
    });
    expect(response.statusCode, response.body).toBe(202);
    const id = response.json<{ changeRequest: { id: number } }>().changeRequest.id;
    // Someone with database access (or an earlier change) moved the record on.
    await suite.db
      .update(administrators)
      .set({ permissions: [0, 4] })
      .where(eq(administrators.id, target.admin.id));
    const refused = await decide(approver.token, id, "approve");
    expectError(refused, 409, "RECORD_CHANGED");
    expect(refused.json()).toMatchObject({ data: { fields: ["permissions"] } });
    const [admin] = await suite.db
      .select({ permissions: administrators.permissions })
      .from(administrators)
      .where(eq(administrators.id, target.admin.id));
    expect(admin!.permissions).toEqual([0, 4]);
    expect(await requestOf(id)).toMatchObject({ status: "pending", failureCode: "RECORD_CHANGED" });
  });

  it("refuses the approval when the amount changed (409 AMOUNT_CHANGED): a settlement marked paid", async () => {
    const [settlement] = await suite.db
      .select({ id: settlements.id, netSen: settlements.netSen })
      .from(settlements)
      .where(eq(settlements.status, "pending"))
      .limit(1);
    const response = await suite.app.inject({
      method: "POST",
      url: `/v1/api/settlements/${settlement!.id}/mark-paid`,
      headers: { ...auth(finance.token), ...reasonHeader("Paid by the bank today") },
      payload: { bankReference: "MBB-2026-0001" },
    });
    expect(response.statusCode, response.body).toBe(202);
    const id = response.json<{ changeRequest: { id: number } }>().changeRequest.id;
    expect((await requestOf(id)).amountSen).toBe(settlement!.netSen);
    await suite.db
      .update(settlements)
      .set({
        netSen: sql`${settlements.netSen} + 100`,
        grossSen: sql`${settlements.grossSen} + 100`,
      })
      .where(eq(settlements.id, settlement!.id));
    expectError(await decide(checker.token, id, "approve"), 409, "AMOUNT_CHANGED");
    const [still] = await suite.db
      .select({ status: settlements.status })
      .from(settlements)
      .where(eq(settlements.id, settlement!.id));
    expect(still!.status).toBe("pending");
  });

  it("expires after its time: it reads expired and cannot be approved", async () => {
    const { user, request } = await pendingTopUp();
    await suite.db
      .update(changeRequests)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(changeRequests.id, request.id));
    const shown = await call(suite.app, checker.token, "GET", `/api/change-requests/${request.id}`);
    expect(shown.json()).toMatchObject({ status: "expired" });
    expectError(await decide(checker.token, request.id, "approve"), 409, "REQUEST_DECIDED");
    expect(await balanceOf(user.id)).toBe(1_000);
  });

  it("is withdrawn by its maker only, while pending", async () => {
    const { request } = await pendingTopUp();
    const withdraw = (token: string) =>
      suite.app.inject({
        method: "POST",
        url: `/v1/api/change-requests/${request.id}/withdraw`,
        headers: auth(token),
        payload: { remark: "Wrong account" },
      });
    expectError(await withdraw(checker.token), 403, "NOT_MAKER");
    const withdrawn = await withdraw(finance.token);
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(withdrawn.json()).toMatchObject({ status: "withdrawn" });
    expectError(await withdraw(finance.token), 409, "REQUEST_DECIDED");
    expectError(await decide(checker.token, request.id, "approve"), 409, "REQUEST_DECIDED");
  });

  it("counts what waits for each administrator, and their own", async () => {
    const counts = async (token: string) =>
      (await call(suite.app, token, "GET", "/api/change-requests/counts")).json<{
        toCheck: number;
        mine: number;
      }>();
    const before = { finance: await counts(finance.token), checker: await counts(checker.token) };
    await pendingTopUp();
    expect(await counts(finance.token)).toEqual({
      ...before.finance,
      mine: before.finance.mine + 1,
    });
    expect(await counts(checker.token)).toEqual({
      ...before.checker,
      toCheck: before.checker.toCheck + 1,
    });
  });
});

describe("bad input changes nothing", () => {
  it("refuses a missing, blank, too long or control-character reason, and bad percent-encoding", async () => {
    const user = await insertWalletUser(suite.db, 0);
    const before = await suite.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(changeRequests);
    const send = (headers: Record<string, string>) =>
      suite.app.inject({
        method: "POST",
        url: "/v1/api/top-up-transactions",
        headers: { ...auth(finance.token), ...headers },
        payload: { accountNumber: user.accountNumber, amountSen: 30_000, channel: "counter" },
      });
    expectError(await send({}), 400, "REASON_REQUIRED");
    expectError(await send(reasonHeader("   ")), 400, "REASON_REQUIRED");
    expectError(await send(reasonHeader("x".repeat(501))), 400, "REASON_TOO_LONG");
    expectError(await send({ [CHANGE_REASON_HEADER]: "Cash%00paid" }), 400, "REASON_INVALID");
    expectError(await send({ [CHANGE_REASON_HEADER]: "Cash%E0%A4%A" }), 400, "REASON_INVALID");
    // The change's own refusals come first: one sen beyond the policy's maximum top-up.
    const policy = (await call(suite.app, finance.token, "GET", "/api/wallet-policy")).json<{
      maxTopUpSen: number;
    }>();
    const tooMuch = await suite.app.inject({
      method: "POST",
      url: "/v1/api/top-up-transactions",
      headers: auth(finance.token),
      payload: {
        accountNumber: user.accountNumber,
        amountSen: policy.maxTopUpSen + 1,
        channel: "counter",
      },
    });
    expectError(tooMuch, 400, "POLICY_MAX_TOP_UP");
    const after = await suite.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(changeRequests);
    expect(after[0]!.n).toBe(before[0]!.n);
    expect(await balanceOf(user.id)).toBe(0);
  });

  it("refuses a blank or too long remark of a decision, and an unknown request", async () => {
    const { request } = await pendingTopUp();
    expectError(await decide(checker.token, request.id, "approve", " "), 400, "VALIDATION_ERROR");
    expectError(
      await decide(checker.token, request.id, "approve", "y".repeat(501)),
      400,
      "VALIDATION_ERROR",
    );
    expectError(await decide(checker.token, 99_999_999, "approve"), 404, "NOT_FOUND");
    expect((await requestOf(request.id)).status).toBe("pending");
  });
});

describe("exactly once under concurrency", () => {
  it("50 concurrent approvals of 10 requests apply each once; every wallet's ledger equals its balance", async () => {
    const pending = await Promise.all(Array.from({ length: 10 }, () => pendingTopUp(25_000)));
    const tokens = [checker.token, approver.token];
    const attempts = pending.flatMap(({ request }) =>
      Array.from({ length: 5 }, (_, i) => decide(tokens[i % 2]!, request.id, "approve")),
    );
    const answers = await Promise.all(attempts);
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code === 200)).toHaveLength(10);
    expect(codes.filter((code) => code === 409)).toHaveLength(40);
    for (const { user, request } of pending) {
      expect(await balanceOf(user.id)).toBe(26_000);
      expect(await ledgerSumOf(user.id)).toBe(26_000);
      expect((await requestOf(request.id)).status).toBe("approved");
    }
  }, 60_000);
});
