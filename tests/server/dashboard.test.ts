import { count, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { App } from "../../server/app";
import type { Db } from "../../server/db";
import {
  businesses,
  businessUpdateRequests,
  changeContactSubmissions,
  riders,
  users,
  userReports,
  wallets,
} from "../../server/db/schema";
import { topUpWallet } from "../../server/services/ledger";
import type { DashboardSummary } from "../../src/shared/schemas/dashboard";
import { PERMISSION } from "../../src/shared/permissions";
import type { Statistics } from "../../src/shared/schemas/statistics";
import { auth, createAdmin, createTestApp, DEMO, login } from "./support/app";
import { createTestDatabase, type TestDatabase } from "./support/database";
import { insertUser } from "./support/user-fixtures";

let testDb: TestDatabase;
let db: Db;
let app: App;

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = testDb.database.db;
  app = await createTestApp(testDb);
});

afterAll(async () => {
  await app?.close();
  await testDb?.destroy();
});

/** Each account's token, signed in once: logins are rate limited per account. */
const tokens = new Map<string, string>();

async function tokenOf(email: string, password: string): Promise<string> {
  const token = tokens.get(email) ?? (await login(app, { email, password })).token;
  tokens.set(email, token);
  return token;
}

async function summary(email: string, password: string): Promise<DashboardSummary> {
  const token = await tokenOf(email, password);
  const response = await app.inject({ url: "/v1/api/dashboard/summary", headers: auth(token) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<DashboardSummary>();
}

async function pendingCounts() {
  const [approvals] = await db
    .select({ n: count() })
    .from(users)
    .where(eq(users.approvalStatus, "pending"));
  const [contacts] = await db
    .select({ n: count() })
    .from(changeContactSubmissions)
    .where(eq(changeContactSubmissions.status, "pending"));
  const [riderRows] = await db
    .select({ n: count() })
    .from(riders)
    .where(eq(riders.verificationStatus, "pending"));
  return {
    approvals: approvals?.n ?? 0,
    changeContact: contacts?.n ?? 0,
    riderVerifications: riderRows?.n ?? 0,
  };
}

describe("GET /api/dashboard/summary: pending work", () => {
  it("gives holders of User (0) the pending approvals, contact changes and rider checks", async () => {
    const desk = await summary(DEMO.userDesk.email, DEMO.userDesk.password);
    const expected = await pendingCounts();
    expect(desk.pending).toEqual(expected);
    expect(desk.pending?.approvals).toBe(desk.users?.pending);
    expect(expected.changeContact).toBeGreaterThan(0);
    expect(expected.riderVerifications).toBeGreaterThan(0);
  });

  it("counts a new pending submission and a new pending rider", async () => {
    const before = await pendingCounts();
    const user = await insertUser(db, { role: "rider", approvalStatus: "approved" });
    await db.insert(riders).values({
      userId: user.id,
      vehicleType: "motorcycle",
      plate: "TST 1",
      licenceNumber: "L-TEST-1",
    });
    await db.insert(changeContactSubmissions).values({
      userId: user.id,
      contactType: "phone",
      oldValue: user.phone,
      newValue: "+60 12-9999999",
    });
    const after = await summary(DEMO.superAdmin.email, DEMO.superAdmin.password);
    expect(after.pending).toMatchObject({
      approvals: before.approvals,
      changeContact: before.changeContact + 1,
      riderVerifications: before.riderVerifications + 1,
    });
  });

  it("keeps its count of pending riders (kept by triggers) through a batch, a decision, a removal and a user's deletion", async () => {
    const pendingRiders = async () =>
      (await summary(DEMO.superAdmin.email, DEMO.superAdmin.password)).pending?.riderVerifications;
    const before = await pendingCounts();
    expect(await pendingRiders()).toBe(before.riderVerifications);
    const made = await Promise.all(
      [1, 2, 3].map(() => insertUser(db, { role: "rider", approvalStatus: "approved" })),
    );
    // One statement of three riders: the statement trigger counts them together.
    await db.insert(riders).values(
      made.map((user, i) => ({
        userId: user.id,
        vehicleType: "car",
        plate: `CNT ${i}`,
        licenceNumber: `L-COUNT-${i}`,
      })),
    );
    expect(await pendingRiders()).toBe(before.riderVerifications + 3);
    await db
      .update(riders)
      .set({ verificationStatus: "Approved" })
      .where(eq(riders.userId, made[0]!.id));
    await db.delete(riders).where(eq(riders.userId, made[1]!.id));
    // The rider row goes with its user (a cascade: the trigger fires for it too).
    await db.delete(users).where(eq(users.id, made[2]!.id));
    const after = await pendingCounts();
    expect(after.riderVerifications).toBe(before.riderVerifications);
    expect(await pendingRiders()).toBe(after.riderVerifications);
  });

  it("leaves the user queues out without User (0): finance sees the open reports and red days", async () => {
    const finance = await summary(DEMO.finance.email, DEMO.finance.password);
    expect(Object.keys(finance.pending ?? {})).toEqual(["userReports", "redDays"]);
    expect(Object.keys(finance).sort()).toEqual(["pending", "today", "trend"]);
  });
});

describe("GET /api/dashboard/summary: today's money", () => {
  it("counts today's business day's successful top-ups and payments, for holders of Top Up (33) only", async () => {
    const before = (await summary(DEMO.finance.email, DEMO.finance.password)).today!;
    expect(before.businessDay).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const user = await insertUser(db, { approvalStatus: "approved" });
    await db.insert(wallets).values({ userId: user.id });
    // Yesterday's top-up (a business day ago) does not count; today's does.
    await db.transaction((tx) =>
      topUpWallet(
        tx,
        { userId: user.id },
        { amountSen: 1_000, channel: "fpx", at: new Date(Date.now() - 86_400_000) },
      ),
    );
    const { token } = await login(app, DEMO.finance);
    const response = await app.inject({
      method: "POST",
      url: "/v1/api/top-up-transactions",
      headers: auth(token),
      payload: { accountNumber: user.accountNumber, amountSen: 2_345, channel: "counter" },
    });
    expect(response.statusCode, response.body).toBe(201);
    const after = (await summary(DEMO.finance.email, DEMO.finance.password)).today!;
    expect(after).toEqual({
      ...before,
      topUps: before.topUps! + 1,
      topUpSen: before.topUpSen! + 2_345,
    });
    const desk = await summary(DEMO.userDesk.email, DEMO.userDesk.password);
    expect(desk.today).toBeUndefined();
  });
});

describe("GET /api/dashboard/summary: merchants", () => {
  it("counts businesses by status and waiting update requests, for holders of Business (4) only", async () => {
    const everything = await summary(DEMO.superAdmin.email, DEMO.superAdmin.password);
    const rows = await db.select({ status: businesses.status }).from(businesses);
    const countOf = (status: string) => rows.filter((row) => row.status === status).length;
    const [requests] = await db
      .select({ pending: count() })
      .from(businessUpdateRequests)
      .where(eq(businessUpdateRequests.status, "pending"));
    expect(everything.businesses).toEqual({
      approved: countOf("approved"),
      suspended: countOf("suspended"),
    });
    expect(everything.pending).toMatchObject({
      businessApprovals: countOf("pending"),
      businessUpdates: requests!.pending,
    });
    expect(everything.pending?.businessApprovals).toBeGreaterThan(0);
    expect(everything.pending?.businessUpdates).toBeGreaterThan(0);
    const finance = await summary(DEMO.finance.email, DEMO.finance.password);
    expect(finance.businesses).toBeUndefined();
  });
});

describe("GET /api/dashboard/summary: user reports", () => {
  it("counts the open reports for holders of User Report (37) only, and a report taken up leaves the queue", async () => {
    const superToken = (await login(app, DEMO.superAdmin)).token;
    const reportDesk = await createAdmin(app, superToken, [PERMISSION.report]);
    const queuesOf = async (token: string) =>
      (
        await app.inject({ url: "/v1/api/dashboard/summary", headers: auth(token) })
      ).json<DashboardSummary>().pending;
    const openReports = async () =>
      (await db.select({ n: count() }).from(userReports).where(eq(userReports.status, "open")))[0]!
        .n;
    const before = await openReports();
    expect(before).toBeGreaterThan(0);
    expect(await queuesOf(reportDesk.token)).toEqual({ userReports: before });
    const [report] = await db
      .select({ id: userReports.id })
      .from(userReports)
      .where(eq(userReports.status, "open"))
      .limit(1);
    const started = await app.inject({
      method: "POST",
      url: `/v1/api/user-reports/${report!.id}/start`,
      headers: auth(superToken),
      payload: {},
    });
    expect(started.statusCode, started.body).toBeLessThan(300);
    expect(await queuesOf(reportDesk.token)).toEqual({ userReports: before - 1 });
    const desk = await summary(DEMO.userDesk.email, DEMO.userDesk.password);
    expect(desk.pending).not.toHaveProperty("userReports");
  });
});

describe("GET /api/dashboard/summary: each queue and figure under its own code", () => {
  it("gives the user desk only the user queues, and a business desk only the business ones", async () => {
    const desk = await summary(DEMO.userDesk.email, DEMO.userDesk.password);
    expect(Object.keys(desk.pending ?? {}).sort()).toEqual([
      "approvals",
      "changeContact",
      "riderVerifications",
    ]);
    expect(desk.businesses).toBeUndefined();
    const superToken = (await login(app, DEMO.superAdmin)).token;
    const business = await createAdmin(app, superToken, [PERMISSION.business]);
    const answer = await app.inject({
      url: "/v1/api/dashboard/summary",
      headers: auth(business.token),
    });
    const merchantsOnly = answer.json<DashboardSummary>();
    expect(Object.keys(merchantsOnly.pending ?? {}).sort()).toEqual([
      "businessApprovals",
      "businessUpdates",
    ]);
    expect(merchantsOnly.users).toBeUndefined();
    expect(merchantsOnly.today).toBeUndefined();
  });

  it("draws a 14-day trend ending today: top-ups for Top Up (33), payments for Settlement (35)", async () => {
    const superToken = (await login(app, DEMO.superAdmin)).token;
    const figuresOf = async (codes: number[]) => {
      const { token } = await createAdmin(app, superToken, codes);
      const response = await app.inject({
        url: "/v1/api/dashboard/summary",
        headers: auth(token),
      });
      return response.json<DashboardSummary>();
    };
    const topUpsOnly = await figuresOf([PERMISSION.topUp]);
    const paymentsOnly = await figuresOf([PERMISSION.settlement]);
    const both = await summary(DEMO.finance.email, DEMO.finance.password);
    expect(both.trend).toHaveLength(14);
    expect(both.trend!.at(-1)!.day).toBe(both.today!.businessDay);
    const { day: _day, ...lastDay } = both.trend!.at(-1)!;
    expect({ businessDay: both.today!.businessDay, ...lastDay }).toEqual(both.today);
    expect(Object.keys(topUpsOnly.today!).sort()).toEqual(["businessDay", "topUpSen", "topUps"]);
    expect(Object.keys(paymentsOnly.today!).sort()).toEqual([
      "businessDay",
      "paymentSen",
      "payments",
    ]);
    expect(topUpsOnly.trend!.every((day) => day.payments === undefined)).toBe(true);
    expect(paymentsOnly.trend!.every((day) => day.topUps === undefined)).toBe(true);
    // The demo campus pays every day of the last two weeks.
    expect(both.trend!.filter((day) => day.paymentSen! > 0).length).toBeGreaterThan(7);
    // A day of the trend is that day's statistics.
    const { token } = await createAdmin(app, superToken, [PERMISSION.statistic]);
    const day = both.trend![5]!.day;
    const response = await app.inject({
      url: `/v1/api/statistics?from=${day}&to=${day}&granularity=day`,
      headers: auth(token),
    });
    const statistics = response.json<Statistics>();
    expect(statistics.totals.topUpSen.current).toBe(both.trend![5]!.topUpSen);
    expect(statistics.totals.paymentSen.current).toBe(both.trend![5]!.paymentSen);
  });
});

describe("GET /api/dashboard/summary: users by approval status", () => {
  /** What a count of every user gives. */
  async function counted() {
    const rows = await db
      .select({ status: users.approvalStatus, n: count() })
      .from(users)
      .groupBy(users.approvalStatus);
    const by = Object.fromEntries(rows.map((row) => [row.status, row.n]));
    return {
      total: rows.reduce((total, row) => total + row.n, 0),
      pending: by.pending ?? 0,
      approved: by.approved ?? 0,
      rejected: by.rejected ?? 0,
    };
  }
  const usersBlock = async () =>
    (await summary(DEMO.superAdmin.email, DEMO.superAdmin.password)).users;

  it("stays equal to a count of the users through sign-ups, decisions in bulk and removals", async () => {
    expect(await usersBlock()).toEqual(await counted());
    const made = [
      await insertUser(db, { approvalStatus: "pending" }),
      await insertUser(db, { approvalStatus: "pending" }),
      await insertUser(db, { approvalStatus: "rejected" }),
    ];
    expect(await usersBlock()).toEqual(await counted());
    await db
      .update(users)
      .set({ approvalStatus: "approved" })
      .where(inArray(users.id, [made[0]!.id, made[1]!.id]));
    // A change that leaves the status as it was changes no count.
    await db.update(users).set({ name: "Count 3b" }).where(eq(users.id, made[2]!.id));
    expect(await usersBlock()).toEqual(await counted());
    await db.delete(users).where(
      inArray(
        users.id,
        made.map((row) => row.id),
      ),
    );
    expect(await usersBlock()).toEqual(await counted());
  });
});
