import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { App } from "../../server/app";
import type { Db } from "../../server/db";
import type { users } from "../../server/db/schema";
import type { UserList } from "../../src/shared/schemas/users";
import { createTestApp, DEMO, login } from "./support/app";
import { createTestDatabase, type TestDatabase } from "./support/database";
import {
  call,
  callApproved,
  expectError,
  expectNoPermission,
  insertUser,
} from "./support/user-fixtures";

let testDb: TestDatabase;
let db: Db;
let app: App;
let superAdmin: string;
let desk: string;
const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);
const PREFIX = `D${process.pid}`;
const fixture = { active: "", stale: "", neverActiveOld: "", neverActiveNew: "", monthAgo: "" };

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = testDb.database.db;
  app = await createTestApp(testDb);
  superAdmin = (await login(app, DEMO.superAdmin)).token;
  desk = (await login(app, DEMO.userDesk)).token;
  const make = async (key: keyof typeof fixture, values: Partial<typeof users.$inferInsert>) => {
    fixture[key] = (
      await insertUser(db, { accountNumber: `${PREFIX}${key}`, ...values })
    ).accountNumber;
  };
  await make("active", { lastActiveAt: daysAgo(10), createdAt: daysAgo(900) });
  await make("stale", { lastActiveAt: daysAgo(400), createdAt: daysAgo(900) });
  await make("neverActiveOld", { lastActiveAt: null, createdAt: daysAgo(500) });
  await make("neverActiveNew", { lastActiveAt: null, createdAt: daysAgo(5) });
  await make("monthAgo", { lastActiveAt: daysAgo(45), createdAt: daysAgo(900) });
});

afterAll(async () => {
  await app?.close();
  await testDb?.destroy();
});

const dormant = (params: Record<string, unknown> = {}, token = superAdmin) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) search.set(key, JSON.stringify(value));
  return call(app, token, "GET", `/api/users/dormant?${search.toString()}`);
};

/** The fixtures the dormant list holds, sorted by account number. */
async function dormantFixtures(): Promise<string[]> {
  const response = await dormant({
    filter: { accountNumber: { $startsWith: PREFIX } },
    sort: { accountNumber: 1 },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<UserList>().users.map((u) => u.accountNumber);
}

/** Adds a wallet policy version with the given dormancy period, as staff would; its answer. */
async function setDormancyDays(value: unknown) {
  const current = (await call(app, superAdmin, "GET", "/api/wallet-policy")).json<
    Record<string, unknown>
  >();
  const keys = ["maxBalanceSen", "minTopUpSen", "maxTopUpSen", "dailyTopUpLimitSen"] as const;
  const limits = Object.fromEntries(
    [...keys, "dailyPaymentLimitSen" as const].map((key) => [key, current[key]]),
  );
  return callApproved(app, superAdmin, "POST", "/api/wallet-policies", {
    ...limits,
    dormancyDays: value,
  });
}

describe("GET /api/users/dormant", () => {
  it("lists users inactive for longer than 365 days by default (created_at when never active)", async () => {
    expect(await dormantFixtures()).toEqual([fixture.neverActiveOld, fixture.stale].sort());
    const page = (await dormant()).json<UserList>();
    expect(page.totalCount).toBeGreaterThanOrEqual(2);
    expect(Object.keys(page)).toEqual(["totalCount", "users", "totalCountExact"]);
  });

  it("follows the dormancy period of the wallet policy in force; a period that is not a sane integer is refused and changes nothing", async () => {
    expect((await setDormancyDays(30)).statusCode).toBe(201);
    expect(await dormantFixtures()).toEqual(
      [fixture.monthAgo, fixture.neverActiveOld, fixture.stale].sort(),
    );
    for (const bad of ["thirty", 0, -5, 2.5, 1_000_000]) {
      expectError(await setDormancyDays(bad), 400, "VALIDATION_ERROR");
      expect(await dormantFixtures(), JSON.stringify(bad)).toEqual(
        [fixture.monthAgo, fixture.neverActiveOld, fixture.stale].sort(),
      );
    }
    expect((await setDormancyDays(365)).statusCode).toBe(201);
    expect(await dormantFixtures()).toEqual([fixture.neverActiveOld, fixture.stale].sort());
  });

  it("takes the aggregation parameters and refuses bad ones with 400 INVALID_QUERY", async () => {
    const vip = await dormant({ filter: { isVip: true, accountNumber: { $startsWith: PREFIX } } });
    expect(vip.json<UserList>().totalCount).toBe(0);
    expectError(await dormant({ filter: { password: "x" } }), 400, "INVALID_QUERY");
    expectError(await dormant({ pagination: { pageSize: 101 } }), 400, "INVALID_QUERY");
  });

  it("needs the Dormant permission (38): the user desk (0) is refused", async () => {
    expectNoPermission(await dormant({}, desk), "GET", "Dormant Accounts");
  });
});
