/**
 * Four eyes' expiry through HTTP on a real database (docs/four-eyes.md, "Expiry"): the scheduled
 * job stores a pending request past its time as expired (decided at its expiry, one audit entry),
 * and leaves one before its time pending; after it, the Pending approvals list filtered by
 * pending leaves the request out, and before it as after it, the counts leave it out, it reads
 * expired, and neither its approval nor its withdrawal is taken.
 */
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { auditLog, changeRequests, wallets } from "../../server/db/schema";
import { changeRequestExpiryJob } from "../../server/jobs/change-request-expiry";
import { CHANGE_REASON_HEADER } from "../../src/shared/kit/four-eyes";
import { auth, DEMO, login } from "./support/app";
import { POSTGRES_URL } from "./support/database";
import { call, expectError, insertWalletUser, useUserDeskSuite } from "./support/user-fixtures";

const suite = useUserDeskSuite();
/** Finance (33, 35, 37) makes; the finance checker (the same codes) checks. */
let finance = { token: "", id: 0 };
let checker = { token: "", id: 0 };

beforeAll(async () => {
  const session = (credentials: { email: string; password: string }) =>
    login(suite.app, credentials).then(({ token, admin }) => ({ token, id: admin.id }));
  finance = await session(DEMO.finance);
  checker = await session(DEMO.checker);
}, 60_000);

/** A pending counter top-up of RM 300 (above the RM 200 threshold) for a fresh wallet. */
async function pendingTopUp() {
  const user = await insertWalletUser(suite.db, 1_000);
  const response = await suite.app.inject({
    method: "POST",
    url: "/v1/api/top-up-transactions",
    headers: {
      ...auth(finance.token),
      [CHANGE_REASON_HEADER]: encodeURIComponent("Cash paid at the counter"),
    },
    payload: { accountNumber: user.accountNumber, amountSen: 30_000, channel: "counter" },
  });
  expect(response.statusCode, response.body).toBe(202);
  const { changeRequest } = response.json<{ changeRequest: { id: number } }>();
  return { user, id: changeRequest.id };
}

const pastItsTime = (id: number) =>
  suite.db
    .update(changeRequests)
    .set({ expiresAt: sql`now() - interval '1 minute'` })
    .where(eq(changeRequests.id, id));

const balanceOf = async (userId: number) => {
  const [wallet] = await suite.db.select().from(wallets).where(eq(wallets.userId, userId));
  return wallet!.balanceSen;
};

const stored = async (id: number) => {
  const [row] = await suite.db.select().from(changeRequests).where(eq(changeRequests.id, id));
  return row!;
};

const counts = async (token: string) =>
  (await call(suite.app, token, "GET", "/api/change-requests/counts")).json<{
    toCheck: number;
    mine: number;
  }>();

/** The ids and statuses the checker's list shows under a status filter. */
async function listed(status: string) {
  const query = new URLSearchParams({
    filter: JSON.stringify({ status }),
    sort: JSON.stringify({ createdAt: -1 }),
    pagination: JSON.stringify({ page: 1, pageSize: 100 }),
  });
  const list = await call(
    suite.app,
    checker.token,
    "GET",
    `/api/change-requests/aggregation?${query}`,
  );
  expect(list.statusCode, list.body).toBe(200);
  const body = list.json<{
    totalCount: number;
    changeRequests: { id: number; status: string }[];
  }>();
  return {
    total: body.totalCount,
    rows: new Map(body.changeRequests.map((r) => [r.id, r.status])),
  };
}

const approve = (id: number) =>
  call(suite.app, checker.token, "PATCH", `/api/change-requests/${id}`, {
    action: "approve",
    remark: "Slip seen",
  });

const withdraw = (id: number) =>
  call(suite.app, finance.token, "POST", `/api/change-requests/${id}/withdraw`, {
    remark: "Wrong account",
  });

describe("a change request past its time", () => {
  it("reads expired, is neither approved nor withdrawn, and leaves the counts before the job runs", async () => {
    const before = await counts(checker.token);
    const { user, id } = await pendingTopUp();
    expect(await counts(checker.token)).toEqual({ ...before, toCheck: before.toCheck + 1 });
    await pastItsTime(id);
    expect((await stored(id)).status).toBe("pending");

    expect(await counts(checker.token)).toEqual(before);
    const shown = await call(suite.app, checker.token, "GET", `/api/change-requests/${id}`);
    expect(shown.json()).toMatchObject({ status: "expired" });
    expectError(await approve(id), 409, "REQUEST_DECIDED");
    expectError(await withdraw(id), 409, "REQUEST_DECIDED");
    expect(await balanceOf(user.id)).toBe(1_000);
    // Until the job runs, the pending filter (the stored status, through its index) still finds
    // it, reading expired: the window docs/four-eyes.md tells of.
    expect((await listed("pending")).rows.get(id)).toBe("expired");
    await changeRequestExpiryJob().run(suite.db);
  });

  it("is stored as expired by the job (one audit entry), and one before its time stays pending", async () => {
    const late = await pendingTopUp();
    const waiting = await pendingTopUp();
    await pastItsTime(late.id);

    expect(await changeRequestExpiryJob().run(suite.db)).toEqual({ expiredRequests: 1 });

    const expired = await stored(late.id);
    expect(expired).toMatchObject({ status: "expired", checkerId: null });
    expect(expired.decidedAt).toEqual(expired.expiresAt);
    expect(await stored(waiting.id)).toMatchObject({ status: "pending", decidedAt: null });
    const entries = (id: number) =>
      suite.db
        .select()
        .from(auditLog)
        .where(
          and(
            eq(auditLog.targetTable, "change_requests"),
            eq(auditLog.targetId, String(id)),
            eq(auditLog.action, "change_request.expire"),
          ),
        );
    const [entry, ...more] = await entries(late.id);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      adminId: null,
      before: { status: "pending" },
      after: { status: "expired", decidedAt: expired.expiresAt.toISOString() },
    });
    expect(await entries(waiting.id)).toEqual([]);

    // Nothing left to expire: a second run changes nothing and writes no entry.
    expect(await changeRequestExpiryJob().run(suite.db)).toEqual({ expiredRequests: 0 });
    expect(await entries(late.id)).toHaveLength(1);
  });

  it("once stored, the list's pending filter and the counts leave it out; it is not approved", async () => {
    const late = await pendingTopUp();
    const waiting = await pendingTopUp();
    const before = await counts(checker.token);
    await pastItsTime(late.id);
    await changeRequestExpiryJob().run(suite.db);

    const pending = await listed("pending");
    expect(pending.rows.has(late.id)).toBe(false);
    expect(pending.rows.get(waiting.id)).toBe("pending");
    expect(pending.total).toBe(pending.rows.size);
    expect([...pending.rows.values()].every((status) => status === "pending")).toBe(true);
    expect((await listed("expired")).rows.get(late.id)).toBe("expired");

    expect(await counts(checker.token)).toEqual({ ...before, toCheck: before.toCheck - 1 });
    expect(await counts(finance.token)).toMatchObject({ mine: pending.total });

    expectError(await approve(late.id), 409, "REQUEST_DECIDED");
    expectError(await withdraw(late.id), 409, "REQUEST_DECIDED");
    expect(await balanceOf(late.user.id)).toBe(1_000);
    expect(await stored(late.id)).toMatchObject({ status: "expired", checkerId: null });

    // The one before its time is still decided as usual.
    const approved = await approve(waiting.id);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await balanceOf(waiting.user.id)).toBe(31_000);
  });

  // A second connection holds the lock while the job runs: PostgreSQL only (the embedded store
  // is one connection, so the lock's transaction would hold the job's statement back anyway).
  it.skipIf(POSTGRES_URL === undefined)(
    "a request being decided (its row locked) is skipped, not waited for, and expired next run",
    async () => {
      const late = await pendingTopUp();
      await pastItsTime(late.id);
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked = () => {};
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holding = suite.db.transaction(async (tx) => {
        await tx
          .select({ id: changeRequests.id })
          .from(changeRequests)
          .where(eq(changeRequests.id, late.id))
          .for("update");
        locked();
        await released;
      });
      await isLocked;
      try {
        expect(await changeRequestExpiryJob().run(suite.db)).toEqual({ expiredRequests: 0 });
        expect((await stored(late.id)).status).toBe("pending");
      } finally {
        release();
        await holding;
      }
      expect(await changeRequestExpiryJob().run(suite.db)).toEqual({ expiredRequests: 1 });
      expect((await stored(late.id)).status).toBe("expired");
    },
  );
});
