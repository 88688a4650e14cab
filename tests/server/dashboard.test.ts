import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { App } from "../../server/app";
import type { Db } from "../../server/db";
import {
  businesses,
  businessUpdateRequests,
  changeContactSubmissions,
  riders,
  users,
  wallets,
} from "../../server/db/schema";
import { topUpWallet } from "../../server/services/ledger";
import type { DashboardSummary } from "../../src/shared/schemas/dashboard";
import { auth, createTestApp, DEMO, login } from "./support/app";
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

async function summary(email: string, password: string): Promise<DashboardSummary> {
  const { token } = await login(app, { email, password });
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
    expect(after.pending).toEqual({
      approvals: before.approvals,
      changeContact: before.changeContact + 1,
      riderVerifications: before.riderVerifications + 1,
    });
  });

  it("leaves the pending block out without User (0)", async () => {
    const finance = await summary(DEMO.finance.email, DEMO.finance.password);
    expect(finance.pending).toBeUndefined();
    expect(Object.keys(finance)).toEqual(["today"]);
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
      topUps: before.topUps + 1,
      topUpSen: before.topUpSen + 2_345,
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
      pending: countOf("pending"),
      approved: countOf("approved"),
      suspended: countOf("suspended"),
      updateRequests: requests!.pending,
    });
    expect(everything.businesses?.pending).toBeGreaterThan(0);
    expect(everything.businesses?.updateRequests).toBeGreaterThan(0);
    const finance = await summary(DEMO.finance.email, DEMO.finance.password);
    expect(finance.businesses).toBeUndefined();
  });
});
