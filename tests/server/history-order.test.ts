/**
 * A record's history in the order its changes were committed (issue 30): concurrent mark-paid and
 * mark-failed calls on one settlement, and one whose transaction began before another's but took
 * the row lock after it. The history's newest entry is the record's state, and each entry starts
 * where the one before it ended. created_at is when a transaction began (PostgreSQL's now()), so
 * ordering by it put a change that waited for the lock before the one it waited for.
 */
import { expect, it, vi } from "vitest";

import type { Db } from "../../server/db";
import { payFromWallet } from "../../server/services/ledger";
import { DEMO, login } from "./support/app";
import { POSTGRES_URL } from "./support/database";
import { atDaysAgo, daysAgo, insertBusiness, settlementsOf } from "./support/money-fixtures";
import { call, callApproved, insertWalletUser, useUserDeskSuite } from "./support/user-fixtures";

const suite = useUserDeskSuite();

/** A pending settlement of a business of the test's own. */
async function pendingSettlement() {
  const shop = await insertBusiness(suite.db);
  const payer = await insertWalletUser(suite.db, 50_000);
  await suite.db.transaction((tx) =>
    payFromWallet(tx, {
      userId: payer.id,
      businessId: shop.id,
      amountSen: 2_500,
      at: atDaysAgo(5),
    }),
  );
  const run = await call(suite.app, suite.finance, "POST", "/api/settlements/run", {
    periodEnd: daysAgo(4),
  });
  expect(run.statusCode, run.body).toBe(200);
  const [settlement] = await settlementsOf(suite.db, shop.id);
  expect(settlement?.status).toBe("pending");
  return settlement!;
}

// Marking paid waits for a second approver: the approval applies it (or finds the settlement
// moved on: 409 RECORD_CHANGED).
const markPaid = (id: number, n: number) =>
  callApproved(suite.app, suite.finance, "POST", `/api/settlements/${id}/mark-paid`, {
    bankReference: `MBB-${n}`,
  });
const markFailed = (id: number, n: number) =>
  call(suite.app, suite.finance, "POST", `/api/settlements/${id}/mark-failed`, {
    remark: `Bounced ${n}`,
  });

interface Entry {
  action: string;
  before: { status?: string } | null;
  after: { status?: string } | null;
}

/** The settlement's history through the API, newest first, against its state. */
async function expectHistoryFollowsState(id: number) {
  const record = await call(suite.app, suite.finance, "GET", `/api/settlements/${id}`);
  expect(record.statusCode, record.body).toBe(200);
  const history = await call(
    suite.app,
    suite.finance,
    "GET",
    `/api/settlements/${id}/audit?page=1&pageSize=50`,
  );
  expect(history.statusCode, history.body).toBe(200);
  const moves = history
    .json<{ entries: Entry[] }>()
    .entries.filter((entry) => entry.action.startsWith("settlement.mark-"));
  expect(moves.length).toBeGreaterThan(0);
  const steps = moves.map((entry) => `${entry.before?.status} → ${entry.after?.status}`);
  expect(moves[0]?.after?.status, steps.join(", ")).toBe(record.json<{ status: string }>().status);
  moves.forEach((entry, i) => {
    expect(entry.before?.status, steps.join(", ")).toBe(moves[i + 1]?.after?.status ?? "pending");
  });
  return moves;
}

/**
 * Holds the next transaction `db` begins, after its BEGIN (so its now() is taken) and before its
 * first statement, until `release`: a change that begins first and reaches the row lock last.
 */
function holdNextTransaction(db: Db) {
  let began!: () => void;
  const begun = new Promise<void>((resolve) => (began = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const transaction = db.transaction.bind(db);
  const spy = vi.spyOn(db, "transaction").mockImplementationOnce(((work, config) =>
    transaction(async (tx) => {
      began();
      await released;
      return work(tx);
    }, config)) as Db["transaction"]);
  return {
    begun,
    release() {
      release();
      spy.mockRestore();
    },
  };
}

it("lists the history of ten concurrent mark-paid / mark-failed calls in the order they applied", async () => {
  const settlement = await pendingSettlement();
  const responses = await Promise.all(
    Array.from({ length: 10 }, (_, n) =>
      n % 2 === 0 ? markFailed(settlement.id, n) : markPaid(settlement.id, n),
    ),
  );
  for (const response of responses)
    expect([200, 409], response.body).toContain(response.statusCode);
  const moves = await expectHistoryFollowsState(settlement.id);
  expect(moves.length).toBe(responses.filter((response) => response.statusCode === 200).length);
});

// The embedded store runs one transaction at a time: a held one would hold up the others. (A
// settlement marked paid waits for a second approver now, whose approval refuses a record that
// moved on: a business suspended and reinstated shows the order instead.)
it.skipIf(!POSTGRES_URL)(
  "lists a change that began before another but locked after it as the newest",
  async () => {
    const shop = await insertBusiness(suite.db);
    const superToken = (await login(suite.app, DEMO.superAdmin)).token;
    const act = (verb: "suspend" | "reinstate") =>
      call(suite.app, superToken, "POST", `/api/businesses/${shop.id}/${verb}`, {
        remark: `Order check: ${verb}`,
      });
    const held = holdNextTransaction(suite.db);
    const reinstated = act("reinstate");
    await held.begun;
    const suspended = await act("suspend");
    expect(suspended.statusCode, suspended.body).toBe(200);
    held.release();
    const late = await reinstated;
    expect(late.statusCode, late.body).toBe(200);
    const history = await call(
      suite.app,
      superToken,
      "GET",
      `/api/businesses/${shop.id}/audit?page=1&pageSize=50`,
    );
    expect(history.statusCode, history.body).toBe(200);
    const entries = history.json<{ entries: Entry[] }>().entries;
    expect(entries.map((entry) => entry.action)).toEqual([
      "business.reinstate",
      "business.suspend",
    ]);
    expect(entries.map((entry) => `${entry.before?.status} → ${entry.after?.status}`)).toEqual([
      "suspended → approved",
      "approved → suspended",
    ]);
  },
);
