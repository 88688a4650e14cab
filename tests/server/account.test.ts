import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { App } from "../../server/app";
import { auditLog } from "../../server/db/schema";
import { auth, createAdmin, createTestApp, DEMO, login } from "./support/app";
import { createTestDatabase, type TestDatabase } from "./support/database";

let testDb: TestDatabase;
let app: App;
let superToken: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb);
  superToken = (await login(app, DEMO.superAdmin)).token;
});

afterAll(async () => {
  await app?.close();
  await testDb?.destroy();
});

const patchAccount = (token: string, payload: unknown) =>
  app.inject({
    method: "PATCH",
    url: "/v1/api/account/admin",
    headers: auth(token),
    payload: payload as object,
  });
const changePassword = (token: string, payload: unknown) =>
  app.inject({
    method: "POST",
    url: "/v1/api/account/password",
    headers: auth(token),
    payload: payload as object,
  });

describe("GET /v1/api/account/admin", () => {
  it("returns the administrator the token belongs to", async () => {
    const { admin, token } = await createAdmin(app, superToken, [0, 33]);
    const response = await app.inject({ url: "/v1/api/account/admin", headers: auth(token) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      ...admin,
      lastLoginAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });
});

describe("PATCH /v1/api/account/admin", () => {
  it("changes the name and the language, and audits it", async () => {
    const { admin, token } = await createAdmin(app, superToken, [0]);
    const response = await patchAccount(token, { name: "Renamed Self", language: "cn-ZH" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: admin.id,
      name: "Renamed Self",
      language: "cn-ZH",
    });

    const cleared = await patchAccount(token, { language: null });
    expect(cleared.json().language).toBeNull();

    const [entry] = await testDb.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "account.update"))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(entry).toMatchObject({
      adminId: admin.id,
      targetId: String(admin.id),
      before: expect.objectContaining({ language: "cn-ZH" }),
      after: expect.objectContaining({ language: null }),
    });
  });

  it("cannot change permissions, status or e-mail of one's own account", async () => {
    const { token } = await createAdmin(app, superToken, [0]);
    for (const payload of [
      { permissions: [8] },
      { status: "active" },
      { email: "me@wallet.example" },
    ]) {
      const response = await patchAccount(token, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().code).toBe("VALIDATION_ERROR");
    }
  });

  it("400 for an unknown language or an empty name", async () => {
    const { token } = await createAdmin(app, superToken, [0]);
    expect((await patchAccount(token, { language: "fr-FR" })).json()).toMatchObject({
      code: "VALIDATION_ERROR",
      message: expect.stringContaining("language"),
    });
    expect((await patchAccount(token, { name: "   " })).json()).toMatchObject({
      code: "VALIDATION_ERROR",
      message: expect.stringContaining("name"),
    });
  });
});

describe("POST /v1/api/account/password", () => {
  // Issue 16: this call answered 204 and left every token working; it now ends every other
  // session and hands this one a fresh token.
  it("the new password works, the old one no longer does; the session goes on with a fresh token", async () => {
    const { admin, token, password } = await createAdmin(app, superToken, [0]);
    const response = await changePassword(token, {
      currentPassword: password,
      newPassword: "Brand#New2026",
    });
    expect(response.statusCode).toBe(200);
    const fresh = response.json<{ token: string }>().token;
    const me = (t: string) =>
      app.inject({ method: "GET", url: "/v1/api/account/admin", headers: auth(t) });
    expect((await me(token)).json()).toEqual({ message: "Invalid credential key" });
    expect((await me(fresh)).statusCode).toBe(200);
    await login(app, { email: admin.email, password: "Brand#New2026" });
    const old = await app.inject({
      method: "POST",
      url: "/v1/api/auth/login",
      payload: { email: admin.email, password },
    });
    expect(old.statusCode).toBe(401);
  });

  it("400 WRONG_CURRENT_PASSWORD when the current password is wrong", async () => {
    const { token } = await createAdmin(app, superToken, [0]);
    const response = await changePassword(token, {
      currentPassword: "Not#Mine123",
      newPassword: "Brand#New2026",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe("WRONG_CURRENT_PASSWORD");
  });

  it("400 WEAK_PASSWORD for a new password that breaks the policy", async () => {
    const { token, password } = await createAdmin(app, superToken, [0]);
    const response = await changePassword(token, { currentPassword: password, newPassword: "abc" });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: "WEAK_PASSWORD",
      data: { rules: ["length", "uppercase", "digit"] },
    });
  });

  it("400 VALIDATION_ERROR for a missing field", async () => {
    const { token } = await createAdmin(app, superToken, [0]);
    const response = await changePassword(token, { newPassword: "Brand#New2026" });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: "VALIDATION_ERROR",
      message: expect.stringContaining("currentPassword"),
    });
  });
});
