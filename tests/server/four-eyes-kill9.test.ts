/**
 * Four eyes across a crash (issue 32), on the database this suite runs on: the real server
 * process takes a stream of approvals of pending counter top-ups and is killed with SIGKILL while
 * more are in flight. After a restart every request is either approved, with its ledger row,
 * its audit entry naming both administrators and the wallet's balance equal to its ledger, or
 * still pending with nothing applied: never half.
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { auditLog, changeRequests, wallets, walletTransactions } from "../../server/db/schema";
import { CHANGE_REASON_HEADER } from "../../src/shared/kit/four-eyes";
import { DEMO } from "./support/app";
import { createTestDatabase, testEnv, type TestDatabase } from "./support/database";
import { freePort, killMidStream, startSignedIn } from "./support/server-process";
import { insertWalletUser } from "./support/user-fixtures";

const REQUESTS = 40;
const ACKNOWLEDGED_BEFORE_KILL = 12;
const IN_FLIGHT = 4;
const AMOUNT_SEN = 25_000;

let testDb: TestDatabase;
let env: Record<string, string>;
const accounts: Array<{ id: number; accountNumber: string }> = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  for (let i = 0; i < REQUESTS; i += 1)
    accounts.push(await insertWalletUser(testDb.database.db, 1_000));
  // The process under test opens the store itself.
  await testDb.database.close();
  env = {
    ...testEnv(testDb.dataDir, testDb.url ? { DATABASE_URL: testDb.url } : {}),
    PORT: String(await freePort()),
    HOST: "127.0.0.1",
    DATABASE_POOL_MAX: "4",
  };
}, 120_000);

afterAll(async () => {
  await testDb?.destroy();
});

async function signIn(base: string, credentials: { email: string; password: string }) {
  const response = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(credentials),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { token: string; admin: { id: number } };
}

describe("a server killed with SIGKILL while change requests are approved", () => {
  it("leaves each request approved with its ledger row and audit, or pending with nothing applied", async () => {
    const first = await startSignedIn(env, DEMO.finance);
    const checker = await signIn(first.base, DEMO.checker);
    const requests: Array<{ id: number; userId: number }> = [];
    for (const account of accounts) {
      const response = await fetch(`${first.base}/api/top-up-transactions`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: first.token,
          [CHANGE_REASON_HEADER]: encodeURIComponent("Cash at the counter"),
        },
        body: JSON.stringify({
          accountNumber: account.accountNumber,
          amountSen: AMOUNT_SEN,
          channel: "counter",
        }),
      });
      expect(response.status, await response.clone().text()).toBe(202);
      const { changeRequest } = (await response.json()) as { changeRequest: { id: number } };
      requests.push({ id: changeRequest.id, userId: account.id });
    }

    const stream = await killMidStream(first.run, [...requests], {
      send: (request) =>
        fetch(`${first.base}/api/change-requests/${request.id}`, {
          method: "PATCH",
          headers: { "content-type": "application/json", authorization: checker.token },
          body: JSON.stringify({ action: "approve", remark: `kill9 ${request.id}` }),
        }),
      named: (request) => `approve ${request.id}`,
      killAfter: ACKNOWLEDGED_BEFORE_KILL,
      inFlight: IN_FLIGHT,
    });
    const { refusals, killed, killedWithInFlight } = stream;
    const acknowledged = new Set(stream.acknowledged.map((request) => request.id));
    expect(refusals).toEqual([]);
    expect(killed).toBe(true);
    expect(await first.run.exit).toBeNull();
    expect(killedWithInFlight, "approvals were in flight when the process died").toBeGreaterThan(0);

    // The same data opens again (a stale DATA_DIR lock included); then it is read directly.
    const second = await startSignedIn(env, DEMO.checker);
    second.run.kill("SIGTERM");
    await second.run.exit;
    const db = (await testDb.reopen()).db;

    let approved = 0;
    for (const { id, userId } of requests) {
      const [request] = await db.select().from(changeRequests).where(eq(changeRequests.id, id));
      const topUps = await db
        .select()
        .from(walletTransactions)
        .where(and(eq(walletTransactions.userId, userId), eq(walletTransactions.type, "top_up")));
      const [wallet] = await db.select().from(wallets).where(eq(wallets.userId, userId));
      const [ledger] = await db
        .select({
          sum: sql<number>`coalesce(sum(${walletTransactions.amountSen}), 0)`.mapWith(Number),
        })
        .from(walletTransactions)
        .where(
          and(eq(walletTransactions.userId, userId), eq(walletTransactions.status, "success")),
        );
      expect(wallet!.balanceSen, `wallet of request ${id}`).toBe(ledger!.sum);
      if (acknowledged.has(id)) expect(request!.status, `acknowledged ${id}`).toBe("approved");
      if (request!.status === "approved") {
        approved += 1;
        expect(topUps.map((row) => row.id)).toEqual([request!.resultId]);
        expect(wallet!.balanceSen).toBe(1_000 + AMOUNT_SEN);
        const entries = await db
          .select()
          .from(auditLog)
          .where(
            and(
              eq(auditLog.action, "top_up.create"),
              eq(auditLog.targetId, String(request!.resultId)),
            ),
          );
        expect(entries).toHaveLength(1);
        expect(entries[0]).toMatchObject({ approvedBy: checker.admin.id });
      } else {
        expect(request).toMatchObject({ status: "pending", resultId: null, decidedAt: null });
        expect(topUps).toEqual([]);
        expect(wallet!.balanceSen).toBe(1_000);
      }
    }
    console.info(
      `four eyes kill -9 on ${testDb.kind}: ${acknowledged.size} acknowledged, ${approved} approved, ${killedWithInFlight} in flight at the kill`,
    );
    expect(approved).toBeGreaterThanOrEqual(acknowledged.size);
  }, 240_000);
});
