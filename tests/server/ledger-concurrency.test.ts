/**
 * The ledger under concurrent writes (issue 11): hundreds of top-ups, reversals and payments at a
 * few hot wallets at once (on PostgreSQL through a pool of connections, on the embedded store
 * through its one). Afterwards, for every wallet: its balance is the sum of its ledger, every
 * acknowledged operation is in it and no refused one is, and no balance ever went below zero or
 * above the policy's maximum.
 */
import { eq, inArray, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";

import { businesses, wallets, walletTransactions } from "../../server/db/schema";
import { HttpError } from "../../server/errors";
import { payFromWallet } from "../../server/services/ledger";
import { createAdmin, DEMO, login } from "./support/app";
import { call, callApproved, insertWalletUser, useUserDeskSuite } from "./support/user-fixtures";

const suite = useUserDeskSuite();
const MAX_BALANCE = 150_000;
const HOT_WALLETS = 4;
const OPERATIONS = 360;
const OPENING = 20_000;

/** A deterministic sequence, so a failure can be replayed. */
function prng(seed: number) {
  let state = seed;
  return (min: number, max: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return min + (state % (max - min + 1));
  };
}

beforeAll(async () => {
  const superToken = (await login(suite.app, DEMO.superAdmin)).token;
  const policyStaff = (await createAdmin(suite.app, superToken, [24])).token;
  const response = await callApproved(suite.app, policyStaff, "POST", "/api/wallet-policies", {
    minTopUpSen: 100,
    maxTopUpSen: 5_000,
    dailyTopUpLimitSen: MAX_BALANCE,
    maxBalanceSen: MAX_BALANCE,
    dailyPaymentLimitSen: 1_000_000,
    dormancyDays: 365,
  });
  expect(response.statusCode, response.body).toBe(201);
}, 60_000);

it(`keeps balance = ledger under ${OPERATIONS} concurrent top-ups, reversals and payments on ${HOT_WALLETS} hot wallets`, async () => {
  const random = prng(20_261_124);
  const holders: Array<{ id: number; accountNumber: string }> = [];
  for (let i = 0; i < HOT_WALLETS; i++) {
    // Each opens with money, so payments can start before the first top-up lands.
    holders.push(await insertWalletUser(suite.db, OPENING));
  }
  const [shop] = await suite.db
    .select({ id: businesses.id })
    .from(businesses)
    .where(eq(businesses.status, "approved"))
    .limit(1);

  const acknowledged = { topUps: new Map<number, number>(), payments: new Set<number>() };
  const reversed = new Set<number>();
  const refusals = new Map<string, number>();
  const refuse = (code: string) => refusals.set(code, (refusals.get(code) ?? 0) + 1);

  const topUpThenMaybeReverse = async (accountNumber: string, amountSen: number, undo: boolean) => {
    const response = await call(suite.app, suite.finance, "POST", "/api/top-up-transactions", {
      accountNumber,
      amountSen,
      channel: "counter",
    });
    if (response.statusCode !== 201) {
      expect(response.statusCode, response.body).toBeLessThan(500);
      refuse(response.json<{ code: string }>().code);
      return;
    }
    const { id } = response.json<{ id: number }>();
    acknowledged.topUps.set(id, amountSen);
    if (!undo) return;
    // A reversal waits for a second approver: the approval applies it, under the same locks.
    const reversal = await callApproved(
      suite.app,
      suite.finance,
      "POST",
      `/api/top-up-transactions/${id}/reverse`,
      { remark: "Concurrency check" },
    );
    if (reversal.statusCode === 200) reversed.add(id);
    else {
      expect(reversal.statusCode, reversal.body).toBe(409);
      refuse(reversal.json<{ code: string }>().code);
    }
  };
  const pay = async (userId: number, amountSen: number) => {
    try {
      const row = await suite.db.transaction((tx) =>
        payFromWallet(tx, { userId, businessId: shop!.id, amountSen }),
      );
      acknowledged.payments.add(row.id);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      refuse(error.code ?? String(error.statusCode));
    }
  };

  await Promise.all(
    Array.from({ length: OPERATIONS }, (_, n) => {
      const holder = holders[random(0, HOT_WALLETS - 1)]!;
      return n % 3 === 2
        ? pay(holder.id, random(100, 800))
        : topUpThenMaybeReverse(holder.accountNumber, random(100, 5_000), random(0, 4) === 0);
    }),
  );

  const ids = holders.map((holder) => holder.id);
  const rows = await suite.db
    .select()
    .from(walletTransactions)
    .where(inArray(walletTransactions.userId, ids));
  // Every acknowledged operation is in the ledger, and nothing else is.
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const [id, amountSen] of acknowledged.topUps) {
    expect(byId.get(id), `top-up ${id}`).toMatchObject({
      type: "top_up",
      amountSen,
      status: reversed.has(id) ? "reversed" : "success",
    });
  }
  for (const id of acknowledged.payments) expect(byId.get(id)?.type).toBe("payment");
  const reversals = rows.filter((row) => row.type === "reversal");
  expect(new Set(reversals.map((row) => row.reversesId))).toEqual(reversed);
  expect(rows).toHaveLength(
    HOT_WALLETS + acknowledged.topUps.size + acknowledged.payments.size + reversed.size,
  );
  // No balance below zero or above the maximum at any point, and each wallet's balance is its sum.
  for (const row of rows) {
    expect(row.balanceAfterSen).toBeGreaterThanOrEqual(0);
    expect(row.balanceAfterSen).toBeLessThanOrEqual(MAX_BALANCE);
  }
  const sums = await suite.db
    .select({
      userId: wallets.userId,
      balanceSen: wallets.balanceSen,
      ledgerSen: sql<string>`coalesce((select sum(t.amount_sen) from wallet_transactions t
        where t.user_id = wallets.user_id and t.status in ('success', 'reversed')), 0)`,
    })
    .from(wallets)
    .where(inArray(wallets.userId, ids));
  for (const wallet of sums) expect(wallet.balanceSen).toBe(Number(wallet.ledgerSen));
  // Each wallet's rows, in order, are a running balance: no lost update.
  for (const id of ids) {
    const own = rows.filter((row) => row.userId === id).sort((a, b) => a.id - b.id);
    let running = 0;
    for (const row of own) {
      if (row.status === "success" || row.status === "reversed") running += row.amountSen;
      expect(row.balanceAfterSen, `row ${row.id}`).toBe(running);
    }
  }
  // The run really contended: something of each kind happened.
  expect(acknowledged.topUps.size).toBeGreaterThan(50);
  expect(acknowledged.payments.size).toBeGreaterThan(20);
  expect(reversed.size).toBeGreaterThan(5);
  expect(
    [...refusals.keys()].every((code) => REFUSALS.has(code)),
    JSON.stringify([...refusals]),
  ).toBe(true);
}, 120_000);

/** The refusals a busy wallet may meet: the policy's and the balance's, never anything else. */
const REFUSALS = new Set([
  "POLICY_MAX_BALANCE",
  "POLICY_DAILY_TOP_UP",
  "POLICY_DAILY_PAYMENT",
  "INSUFFICIENT_BALANCE",
]);
