/**
 * Top Up Transaction and Wallet Policy (issue 11) through HTTP on a real database: the counter
 * top-up under every rule of the policy in force (at, below and above each limit), the daily
 * limit counted by the Malaysian business day, the reversal, the policy's versions, bad input
 * that changes nothing, permissions and audit entries.
 */
import { eq, sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";

import { businesses, walletPolicies, wallets, walletTransactions } from "../../server/db/schema";
import { payFromWallet, topUpWallet } from "../../server/services/ledger";
import { createAdmin, DEMO, login } from "./support/app";
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
let policyStaff = "";
let firstPolicy: Record<string, unknown>;

/** The policy every test starts from (migration 0006's first version). */
const LIMITS = {
  minTopUpSen: 500,
  maxTopUpSen: 50_000,
  dailyTopUpLimitSen: 100_000,
  maxBalanceSen: 150_000,
  dailyPaymentLimitSen: 50_000,
  dormancyDays: 365,
};

beforeAll(async () => {
  finance = suite.finance;
  const superToken = (await login(suite.app, DEMO.superAdmin)).token;
  policyStaff = (await createAdmin(suite.app, superToken, [24])).token;
  firstPolicy = (await call(suite.app, finance, "GET", "/api/wallet-policy")).json();
}, 60_000);

/** Each test leaves the first policy in force again (versions are history: a new one). */
afterEach(async () => {
  await setPolicy(LIMITS);
});

async function setPolicy(limits: Partial<typeof LIMITS>) {
  const response = await callApproved(suite.app, policyStaff, "POST", "/api/wallet-policies", {
    ...LIMITS,
    ...limits,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Record<string, unknown>>();
}

/** A fresh user with an active wallet holding `balanceSen` (one opening ledger row). */
const walletWith = (balanceSen = 0) => insertWalletUser(suite.db, balanceSen);

const topUp = (accountNumber: string, amountSen: unknown, extra: object = {}) =>
  callApproved(suite.app, finance, "POST", "/api/top-up-transactions", {
    accountNumber,
    amountSen,
    channel: "counter",
    ...extra,
  });

async function balanceOf(userId: number) {
  const [wallet] = await suite.db
    .select({ balanceSen: wallets.balanceSen })
    .from(wallets)
    .where(eq(wallets.userId, userId));
  const [ledger] = await suite.db
    .select({
      sum: sql<string>`coalesce(sum(${walletTransactions.amountSen}) filter (where ${walletTransactions.status} in ('success', 'reversed')), 0)`,
      rows: sql<number>`count(*)::int`,
    })
    .from(walletTransactions)
    .where(eq(walletTransactions.userId, userId));
  expect(wallet!.balanceSen, "balance = sum of the ledger").toBe(Number(ledger!.sum));
  return { balanceSen: wallet!.balanceSen, rows: ledger!.rows };
}

describe("GET /api/wallet-policy", () => {
  it("answers the policy in force to any administrator", async () => {
    expect(firstPolicy).toMatchObject({ ...LIMITS, adminName: null });
    const desk = (await login(suite.app, DEMO.userDesk)).token;
    expect((await call(suite.app, desk, "GET", "/api/wallet-policy")).statusCode).toBe(200);
  });
});

describe("GET /api/top-up-transactions/account-holder", () => {
  const holder = (accountNumber: string, token = finance) =>
    call(
      suite.app,
      token,
      "GET",
      `/api/top-up-transactions/account-holder?accountNumber=${encodeURIComponent(accountNumber)}`,
    );

  it("names whose wallet an account number is, with its balance, before anything is credited", async () => {
    const user = await walletWith(1250);
    const response = await holder(` ${user.accountNumber} `);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      accountNumber: user.accountNumber,
      name: user.name,
      role: user.role,
      approvalStatus: "approved",
      isBanned: false,
      walletStatus: "active",
      balanceSen: 1250,
    });
  });

  it("answers 404 for a number no wallet has, 400 for no number, 403 without Top Up (33)", async () => {
    expectError(await holder("W999999999"), 404, "NOT_FOUND");
    expectError(await holder(""), 400, "VALIDATION_ERROR");
    expectError(await holder("W1\u0000"), 400, "VALIDATION_ERROR");
    const user = await walletWith();
    expectNoPermission(await holder(user.accountNumber, suite.desk), "GET", "Account Holder");
  });
});

describe("POST /api/top-up-transactions (counter top-up)", () => {
  it("credits the wallet with its ledger row, answers the top-up and audits it", async () => {
    const user = await walletWith(1_000);
    const response = await topUp(user.accountNumber, 2_550, { remark: "Cash at the counter" });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json<Record<string, unknown>>();
    expect(created).toMatchObject({
      accountNumber: user.accountNumber,
      amountSen: 2_550,
      balanceAfterSen: 3_550,
      channel: "counter",
      status: "success",
      remark: "Cash at the counter",
      adminName: "Finance",
      reversalReference: null,
    });
    expect(created.reference).toMatch(/^TU\d{8}[A-Z0-9]{10}$/);
    expect(await balanceOf(user.id)).toEqual({ balanceSen: 3_550, rows: 2 });
    const [entry] = await auditEntries(suite.db, "wallet_transactions", Number(created.id));
    expect(entry).toMatchObject({ action: "top_up.create", before: null });
    const shown = await call(suite.app, finance, "GET", `/api/top-up-transactions/${created.id}`);
    expect(shown.json()).toEqual(created);
  });

  it("keeps the minimum and maximum top-up: at the limit yes, one sen beyond no", async () => {
    const user = await walletWith();
    expectError(await topUp(user.accountNumber, 499), 400, "POLICY_MIN_TOP_UP");
    expect((await topUp(user.accountNumber, 500)).statusCode).toBe(201);
    expectError(await topUp(user.accountNumber, 50_001), 400, "POLICY_MAX_TOP_UP");
    expect((await topUp(user.accountNumber, 50_000)).statusCode).toBe(201);
    const refused = await topUp(user.accountNumber, 50_001);
    expect(refused.json()).toMatchObject({ data: { limitSen: 50_000 } });
    expect(await balanceOf(user.id)).toEqual({ balanceSen: 50_500, rows: 2 });
  });

  it("keeps the maximum balance: up to it yes, one sen beyond no", async () => {
    const user = await walletWith(149_000);
    expectError(await topUp(user.accountNumber, 1_001), 400, "POLICY_MAX_BALANCE");
    expect((await topUp(user.accountNumber, 1_000)).statusCode).toBe(201);
    expectError(await topUp(user.accountNumber, 500), 400, "POLICY_MAX_BALANCE");
    expect(await balanceOf(user.id)).toEqual({ balanceSen: 150_000, rows: 2 });
  });

  it("keeps the daily top-up limit of the policy in force", async () => {
    await setPolicy({ maxTopUpSen: 6_000, dailyTopUpLimitSen: 10_000 });
    const user = await walletWith();
    expect((await topUp(user.accountNumber, 6_000)).statusCode).toBe(201);
    expect((await topUp(user.accountNumber, 4_000)).statusCode).toBe(201);
    const refused = await topUp(user.accountNumber, 500);
    expectError(refused, 400, "POLICY_DAILY_TOP_UP");
    expect(refused.json()).toMatchObject({ data: { limitSen: 10_000, todaySen: 10_000 } });
    expect(await balanceOf(user.id)).toEqual({ balanceSen: 10_000, rows: 2 });
  });

  it("counts the daily limit by the Malaysian business day, not the UTC day", async () => {
    await setPolicy({ maxTopUpSen: 6_000, dailyTopUpLimitSen: 10_000 });
    const user = await walletWith();
    const at = (iso: string) => ({ amountSen: 0, channel: "counter" as const, at: new Date(iso) });
    const credit = (iso: string, amountSen: number) =>
      suite.db.transaction((tx) => topUpWallet(tx, { userId: user.id }, { ...at(iso), amountSen }));
    // 23:30 on 10 March in Kuala Lumpur (15:30 UTC) and 00:30 on 11 March (16:30 UTC, the same
    // UTC day): two business days, so each has its own limit.
    await credit("2026-03-10T23:30:00+08:00", 6_000);
    await expect(credit("2026-03-10T23:45:00+08:00", 4_001)).rejects.toMatchObject({
      code: "POLICY_DAILY_TOP_UP",
    });
    await credit("2026-03-11T00:30:00+08:00", 6_000);
    await credit("2026-03-11T07:30:00+08:00", 4_000); // 23:30 UTC on 10 March: still 11 March here
    await expect(credit("2026-03-11T23:59:00+08:00", 500)).rejects.toMatchObject({
      code: "POLICY_DAILY_TOP_UP",
    });
    await credit("2026-03-12T00:00:00+08:00", 500);
    expect(await balanceOf(user.id)).toEqual({ balanceSen: 16_500, rows: 4 });
  });

  it("refuses a frozen wallet and an unknown account, crediting nothing", async () => {
    const frozen = await walletWith(2_000);
    await suite.db.update(wallets).set({ status: "frozen" }).where(eq(wallets.userId, frozen.id));
    const refused = await topUp(frozen.accountNumber, 1_000);
    expectError(refused, 409, "WALLET_NOT_ACTIVE");
    expect(refused.json()).toMatchObject({ data: { walletStatus: "frozen" } });
    expectError(await topUp("W-NO-SUCH-ACCOUNT", 1_000), 400, "UNKNOWN_ACCOUNT");
    expect(await balanceOf(frozen.id)).toEqual({ balanceSen: 2_000, rows: 1 });
  });

  it("refuses amounts that are zero, negative, fractional, unsafe or not numbers, and other bad bodies", async () => {
    const user = await walletWith();
    for (const amount of [0, -500, 10.5, 2 ** 53, 1e21, "1000", null, true, [1000], {}]) {
      expectError(await topUp(user.accountNumber, amount), 400, "VALIDATION_ERROR");
    }
    for (const body of [
      { accountNumber: user.accountNumber, amountSen: 1_000 },
      { accountNumber: user.accountNumber, amountSen: 1_000, channel: "fpx" },
      { accountNumber: user.accountNumber, amountSen: 1_000, channel: "counter", extra: 1 },
      { accountNumber: "", amountSen: 1_000, channel: "counter" },
      { accountNumber: "W\u0000001", amountSen: 1_000, channel: "counter" },
      {
        accountNumber: user.accountNumber,
        amountSen: 1_000,
        channel: "counter",
        remark: "a\u202Eb",
      },
    ]) {
      const response = await callApproved(
        suite.app,
        finance,
        "POST",
        "/api/top-up-transactions",
        body,
      );
      expectError(response, 400, "VALIDATION_ERROR");
    }
    expect(await balanceOf(user.id)).toEqual({ balanceSen: 0, rows: 0 });
  });

  it("needs Top Up (33): the user desk is refused", async () => {
    const user = await walletWith();
    const desk = (await login(suite.app, DEMO.userDesk)).token;
    const response = await call(suite.app, desk, "POST", "/api/top-up-transactions", {
      accountNumber: user.accountNumber,
      amountSen: 1_000,
      channel: "counter",
    });
    expectNoPermission(response, "POST", "Top Up Transaction");
    expect(await balanceOf(user.id)).toEqual({ balanceSen: 0, rows: 0 });
  });
});

describe("GET /api/top-up-transactions/aggregation $search", () => {
  it("finds a top-up by its reference or account number, whole or in part, in any case", async () => {
    const holder = await walletWith();
    const created = await callApproved(suite.app, finance, "POST", "/api/top-up-transactions", {
      accountNumber: holder.accountNumber,
      amountSen: 1_000,
      channel: "counter",
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id, reference } = created.json<{ id: number; reference: string }>();
    const search = async (term: string, pageSize = 10) => {
      const filter = encodeURIComponent(JSON.stringify({ $search: term }));
      const pagination = encodeURIComponent(JSON.stringify({ page: 1, pageSize }));
      const response = await call(
        suite.app,
        finance,
        "GET",
        `/api/top-up-transactions/aggregation?filter=${filter}&pagination=${pagination}`,
      );
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ topUpTransactions: Array<{ id: number }> }>().topUpTransactions;
    };
    expect(await search(reference)).toEqual([expect.objectContaining({ id })]);
    expect(await search(` ${reference.toLowerCase()} `)).toEqual([expect.objectContaining({ id })]);
    expect(await search(reference.slice(-7))).toEqual([expect.objectContaining({ id })]);
    expect(await search(holder.accountNumber)).toEqual([expect.objectContaining({ id })]);
    // A whole account number goes through the account's own index: the rows the trigram search
    // finds for its digits, in any case; one no wallet has finds none.
    expect(await search(holder.accountNumber.toLowerCase())).toEqual([
      expect.objectContaining({ id }),
    ]);
    expect(await search("W999999999")).toEqual([]);
    const [busiest] = (
      await suite.testDb.database.db.execute<{ account_number: string }>(sql`
        select u.account_number from wallet_transactions t join users u on u.id = t.user_id
        where t.type = 'top_up' group by 1 order by count(*) desc limit 1`)
    ).rows;
    const byIndex = await search(busiest!.account_number, 100);
    expect(byIndex.length).toBeGreaterThan(1);
    // The same rows as the trigram search for its digits finds of that account (the digits may
    // also be inside another top-up's reference: TU…D000000302 holds W000000302's digits).
    const byDigits = (await search(busiest!.account_number.slice(1), 100)) as Array<{
      id: number;
      accountNumber: string;
    }>;
    expect(byIndex).toEqual(
      byDigits.filter((row) => row.accountNumber === busiest!.account_number),
    );
    // A long term is looked up by its tail first (searchTail), but must match as a whole.
    expect(await search(`-${reference.slice(-7)}`)).toEqual([]);
    expect(await search(`${reference}0`)).toEqual([]);
    // A whole reference goes through the reference's own index: the top-up it names, in any case
    // (above); one no top-up has finds none, and its reversal's reference (RV + it) is no top-up.
    expect(await search(`${reference.slice(0, -1)}${reference.endsWith("Q") ? "R" : "Q"}`)).toEqual(
      [],
    );
    expect(await search(`RV${reference}`)).toEqual([]);
  });
});

describe("GET /api/top-up-transactions/aggregation totalCount", () => {
  it("counts a full page's matches, joining the owner only when the filter reads them", async () => {
    const holder = await walletWith();
    for (let i = 0; i < 12; i++) {
      const created = await callApproved(suite.app, finance, "POST", "/api/top-up-transactions", {
        accountNumber: holder.accountNumber,
        amountSen: 1_000,
        channel: "counter",
      });
      expect(created.statusCode, created.body).toBe(201);
    }
    const total = async (filter: object) => {
      const query = encodeURIComponent(JSON.stringify(filter));
      const response = await call(
        suite.app,
        finance,
        "GET",
        `/api/top-up-transactions/aggregation?filter=${query}`,
      );
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<{ totalCount: number; topUpTransactions: unknown[] }>();
      expect(body.topUpTransactions).toHaveLength(10);
      return body.totalCount;
    };
    expect(await total({ userId: holder.id })).toBe(12);
    expect(await total({ accountNumber: holder.accountNumber })).toBe(12);
    expect(await total({ userId: holder.id, status: "success", channel: "counter" })).toBe(12);
  });
});

describe("POST /api/top-up-transactions/{id}/reverse", () => {
  const reverse = (id: unknown, body: unknown = { remark: "Keyed in twice" }) =>
    callApproved(
      suite.app,
      finance,
      "POST",
      `/api/top-up-transactions/${String(id)}/reverse`,
      body,
    );

  it("takes the money back with a reversal row, once; a second reversal is a 409", async () => {
    const user = await walletWith();
    const { id } = (await topUp(user.accountNumber, 3_000)).json<{ id: number }>();
    const response = await reverse(id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      status: "reversed",
      reversalReference: expect.stringMatching(/^RVTU/),
      reversalRemark: "Keyed in twice",
    });
    expect(await balanceOf(user.id)).toEqual({ balanceSen: 0, rows: 2 });
    const [entry] = await auditEntries(suite.db, "wallet_transactions", id);
    expect(entry).toMatchObject({ action: "top_up.reverse", remark: "Keyed in twice" });
    const twice = await reverse(id);
    expectError(twice, 409, "ALREADY_REVERSED");
    expect(twice.json()).toMatchObject({ data: { status: "reversed" } });
    expect(await balanceOf(user.id)).toEqual({ balanceSen: 0, rows: 2 });
  });

  it("refuses when the money has been spent (409 INSUFFICIENT_BALANCE), changing nothing", async () => {
    const user = await walletWith();
    const { id } = (await topUp(user.accountNumber, 3_000)).json<{ id: number }>();
    // A payment: the wallet app's call, not the console's.
    const [shop] = await suite.db
      .select({ id: businesses.id })
      .from(businesses)
      .where(eq(businesses.status, "approved"))
      .limit(1);
    await suite.db.transaction((tx) =>
      payFromWallet(tx, { userId: user.id, businessId: shop!.id, amountSen: 2_000 }),
    );
    const refused = await reverse(id);
    expectError(refused, 409, "INSUFFICIENT_BALANCE");
    expect(refused.json()).toMatchObject({ data: { balanceSen: 1_000 } });
    expect(await balanceOf(user.id)).toEqual({ balanceSen: 1_000, rows: 2 });
  });

  it("reaches only top-ups: a payment row is not found, and bad remarks or ids are refused", async () => {
    const [payment] = await suite.db
      .select({ id: walletTransactions.id })
      .from(walletTransactions)
      .where(eq(walletTransactions.type, "payment"))
      .limit(1);
    expectError(await reverse(payment!.id), 404, "NOT_FOUND");
    const shown = await call(suite.app, finance, "GET", `/api/top-up-transactions/${payment!.id}`);
    expectError(shown, 404, "NOT_FOUND");
    const history = `/api/top-up-transactions/${payment!.id}/audit`;
    expectError(await call(suite.app, finance, "GET", history), 404, "NOT_FOUND");
    const user = await walletWith();
    const { id } = (await topUp(user.accountNumber, 1_000)).json<{ id: number }>();
    for (const body of [{}, { remark: "" }, { remark: "  " }, { remark: "x".repeat(501) }]) {
      expectError(await reverse(id, body), 400, "VALIDATION_ERROR");
    }
    for (const bad of ["0x10", "1e2", "-1", "2147483648"]) {
      expect((await reverse(bad)).statusCode, bad).toBeGreaterThanOrEqual(400);
      expect((await reverse(bad)).statusCode, bad).toBeLessThan(500);
    }
    expect(await balanceOf(user.id)).toEqual({ balanceSen: 1_000, rows: 1 });
  });
});

describe("POST /api/wallet-policies", () => {
  it("adds a version that takes effect at once, with who and why, and audits it", async () => {
    const created = await setPolicy({ maxTopUpSen: 20_000, dormancyDays: 90 });
    expect(created).toMatchObject({ maxTopUpSen: 20_000, dormancyDays: 90 });
    const inForce = (await call(suite.app, finance, "GET", "/api/wallet-policy")).json();
    expect(inForce).toEqual(created);
    const user = await walletWith();
    expectError(await topUp(user.accountNumber, 20_001), 400, "POLICY_MAX_TOP_UP");
    const [entry] = await auditEntries(suite.db, "wallet_policies", Number(created.id));
    expect(entry).toMatchObject({ action: "wallet_policy.create" });
  });

  it("refuses limits out of order, not positive or not whole, changing nothing", async () => {
    const versions = async () =>
      (await suite.db.select({ id: walletPolicies.id }).from(walletPolicies)).length;
    const before = await versions();
    for (const bad of [
      { minTopUpSen: 50_001 },
      { maxTopUpSen: 100_001 },
      { dailyTopUpLimitSen: 150_001 },
      { minTopUpSen: 0 },
      { dailyPaymentLimitSen: -1 },
      { maxBalanceSen: 1.5 },
      { dormancyDays: 0 },
      { dormancyDays: 36_501 },
      { dormancyDays: "30" },
    ]) {
      const response = await call(suite.app, policyStaff, "POST", "/api/wallet-policies", {
        ...LIMITS,
        ...bad,
      });
      expectError(response, 400, "VALIDATION_ERROR");
    }
    const order = await call(suite.app, policyStaff, "POST", "/api/wallet-policies", {
      ...LIMITS,
      minTopUpSen: 60_000,
    });
    expect(order.json()).toMatchObject({
      data: {
        issues: [{ path: "minTopUpSen", message: "minTopUpSen must not exceed maxTopUpSen" }],
      },
    });
    expect(await versions()).toBe(before);
  });

  it("needs Wallet Policy (24) to change it: Top Up staff are refused", async () => {
    const response = await call(suite.app, finance, "POST", "/api/wallet-policies", LIMITS);
    expectNoPermission(response, "POST", "Wallet Policy");
  });
});
