import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { PERMISSION_CODES } from "../../src/shared/permissions";
import type { App } from "../../server/app";
import { installAccessControl } from "../../server/auth/access";
import { createTokenService } from "../../server/auth/tokens";
import { auth, createAdmin, createTestApp, DEMO, login } from "./support/app";
import { createTestDatabase, type TestDatabase } from "./support/database";
import { A_REASON, injectApproved } from "./support/four-eyes";

let testDb: TestDatabase;
let app: App;
let superToken: string;
/** Holds only Admin (8). */
let holderToken: string;
/** Holds every code except Admin (8). */
let othersToken: string;
let targetId: number;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb);
  superToken = (await login(app, DEMO.superAdmin)).token;
  holderToken = (await createAdmin(app, superToken, [8])).token;
  othersToken = (
    await createAdmin(
      app,
      superToken,
      PERMISSION_CODES.filter((c) => c !== 8),
    )
  ).token;
  // No codes: a holder of 8 alone may act only on administrators whose every code it holds.
  targetId = (await createAdmin(app, superToken, [])).admin.id;
});

afterAll(async () => {
  await app?.close();
  await testDb?.destroy();
});

let emailCounter = 0;
const freshEmail = () => `matrix.${Date.now()}.${(emailCounter += 1)}@wallet.example`;

/** Every route that needs Admin (8), with the name its 403 message uses. */
const ADMIN_ROUTES = [
  {
    thing: "GET Administrators",
    request: () => ({ method: "GET" as const, url: "/v1/api/administrators/aggregation" }),
  },
  {
    thing: "GET Single Administrator",
    request: () => ({ method: "GET" as const, url: `/v1/api/administrators/${targetId}` }),
  },
  {
    thing: "POST Administrator",
    request: () => ({
      method: "POST" as const,
      url: "/v1/api/administrators",
      // Only codes the caller holds can be granted (issue 16): the holder holds 8.
      payload: { name: "Matrix", email: freshEmail(), password: "Matrix#Pass1", permissions: [8] },
    }),
  },
  {
    thing: "PATCH Administrator",
    request: () => ({
      method: "PATCH" as const,
      url: `/v1/api/administrators/${targetId}`,
      payload: { name: `Renamed ${emailCounter++}` },
    }),
  },
  {
    thing: "POST Check Email Available",
    request: () => ({
      method: "POST" as const,
      url: "/v1/user-mgmt/check-email-available",
      payload: { email: freshEmail() },
    }),
  },
  {
    thing: "POST Change Admin Permission",
    request: () => ({
      method: "POST" as const,
      url: "/v1/user-mgmt/change-admin-permission",
      payload: { admin_id: targetId, permission_codes: [8] },
    }),
  },
  {
    thing: "POST Reset Administrator Password",
    request: () => ({
      method: "POST" as const,
      url: `/v1/api/administrators/${targetId}/password-reset`,
    }),
  },
];

const SESSION_ROUTES = [
  { method: "GET" as const, url: "/v1/api/account/admin" },
  { method: "PATCH" as const, url: "/v1/api/account/admin", payload: { language: "en-US" } },
  { method: "GET" as const, url: "/v1/api/dashboard/summary" },
];

describe("routes that need Admin (8)", () => {
  it.each(ADMIN_ROUTES)("$thing: 403 without the code", async ({ thing, request }) => {
    const response = await app.inject({ ...request(), headers: auth(othersToken) });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: `You have no permission to access ${thing}` });
  });

  // A permission change or a new administrator waits for a second approver (the creation only
  // once another administrator could check it, as here), who approves it here.
  it.each(ADMIN_ROUTES)("$thing: allowed with the code", async ({ request }) => {
    const response = await injectApproved(app, {
      ...request(),
      headers: { ...auth(holderToken), ...A_REASON },
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
  });

  it.each(ADMIN_ROUTES)("$thing: allowed for a super administrator", async ({ request }) => {
    const response = await injectApproved(app, {
      ...request(),
      headers: { ...auth(superToken), ...A_REASON },
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
  });

  it.each(ADMIN_ROUTES)("$thing: 401 without a token", async ({ request }) => {
    const response = await app.inject(request());
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: "Missing credential key" });
  });

  it("refuses before looking at the body, so invalid input reveals nothing", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/v1/api/administrators",
      headers: auth(othersToken),
      payload: { nonsense: true },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe("You have no permission to access POST Administrator");
  });
});

describe("routes that need only a session", () => {
  it.each(SESSION_ROUTES)("$method $url: any administrator", async (request) => {
    for (const token of [holderToken, othersToken, superToken]) {
      const response = await app.inject({ ...request, headers: auth(token) });
      expect(response.statusCode, response.body).toBe(200);
    }
  });

  it.each(SESSION_ROUTES)("$method $url: 401 without a token", async (request) => {
    const response = await app.inject(request);
    expect(response.statusCode).toBe(401);
  });

  it("HEAD requests of GET routes are guarded the same way", async () => {
    const anonymous = await app.inject({
      method: "HEAD",
      url: "/v1/api/administrators/aggregation",
    });
    expect(anonymous.statusCode).toBe(401);
    const refused = await app.inject({
      method: "HEAD",
      url: "/v1/api/administrators/aggregation",
      headers: auth(othersToken),
    });
    expect(refused.statusCode).toBe(403);
  });

  it("public routes need nothing", async () => {
    const response = await app.inject({ method: "GET", url: "/v1/health" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok" });
  });
});

describe("GET /v1/api/dashboard/summary", () => {
  const summary = async (token: string) =>
    (await app.inject({ url: "/v1/api/dashboard/summary", headers: auth(token) })).json();

  it("shows each block only to holders of its code", async () => {
    const userDesk = await summary((await login(app, DEMO.userDesk)).token);
    expect(Object.keys(userDesk)).toEqual(["users", "pending"]);
    expect(userDesk.users.total).toBe(
      userDesk.users.pending + userDesk.users.approved + userDesk.users.rejected,
    );
    expect(userDesk.users.total).toBeGreaterThanOrEqual(500);

    // Finance holds Top Up (33), Settlement (35) and User Report (37): today's money, its 14-day
    // trend, the open reports' queue and the red reconciled days', nothing about users or
    // administrators.
    const finance = await summary((await login(app, DEMO.finance)).token);
    expect(Object.keys(finance)).toEqual(["pending", "today", "trend"]);
    expect(Object.keys(finance.pending!)).toEqual(["userReports", "redDays"]);

    const holder = await summary(holderToken);
    expect(Object.keys(holder)).toEqual(["administrators"]);

    const everything = await summary(superToken);
    expect(everything.administrators.banned).toBeGreaterThanOrEqual(1);
    expect(everything.administrators.total).toBe(
      everything.administrators.active +
        everything.administrators.disabled +
        everything.administrators.banned,
    );
    expect(everything.users).toEqual(userDesk.users);
  });
});

describe("access declarations", () => {
  const tokens = createTokenService("x".repeat(40), 60);

  it("refuse to start an API route that declares no access", async () => {
    const bare = Fastify();
    installAccessControl(bare, {
      db: testDb.database.db,
      tokens,
      walletTokens: tokens,
      sessions: { idleMinutes: 15, stepUpMinutes: 5 },
      apiPrefix: "/v1",
      exemptPrefixes: ["/v1/docs"],
    });
    expect(() => bare.get("/v1/api/undeclared", async () => ({}))).toThrow(
      /must declare config.access/,
    );
    await bare.close();
  });

  it("refuse an unknown permission code", async () => {
    const bare = Fastify();
    installAccessControl(bare, {
      db: testDb.database.db,
      tokens,
      walletTokens: tokens,
      sessions: { idleMinutes: 15, stepUpMinutes: 5 },
      apiPrefix: "/v1",
      exemptPrefixes: [],
    });
    expect(() =>
      bare.get(
        "/v1/api/odd",
        { config: { access: { permission: 7 as never, thing: "Odd" } } },
        async () => ({}),
      ),
    ).toThrow(/must declare config.access/);
    await bare.close();
  });
});
