import { eq } from "drizzle-orm";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { App } from "../../server/app";
import { administrators, auditLog, globalSettings } from "../../server/db/schema";
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

const account = (token?: string, headers: Record<string, string> = {}) =>
  app.inject({
    method: "GET",
    url: "/v1/api/account/admin",
    headers: token === undefined ? headers : { ...headers, authorization: token },
  });

describe("POST /v1/api/auth/login", () => {
  it("returns a token and the administrator, and records the login time", async () => {
    const before = Date.now();
    const { token, admin } = await login(app, DEMO.userDesk);
    expect(token.split(".")).toHaveLength(3);
    expect(admin).toMatchObject({
      email: DEMO.userDesk.email,
      permissions: [0],
      isSuperAdmin: false,
      status: "active",
    });
    expect(admin).not.toHaveProperty("passwordHash");
    expect(Date.parse(admin.lastLoginAt ?? "")).toBeGreaterThanOrEqual(before - 1000);
    const me = await account(token);
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(admin.id);
  });

  it("accepts the e-mail in any letter case", async () => {
    const { admin } = await login(app, {
      email: DEMO.finance.email.toUpperCase(),
      password: DEMO.finance.password,
    });
    expect(admin.email).toBe(DEMO.finance.email);
  });

  it("gives the same 401 for a wrong password and an unknown e-mail, localised", async () => {
    const wrongPassword = await app.inject({
      method: "POST",
      url: "/v1/api/auth/login",
      payload: { email: DEMO.finance.email, password: "Not-the-password1" },
    });
    const unknownEmail = await app.inject({
      method: "POST",
      url: "/v1/api/auth/login",
      payload: { email: "nobody@wallet.example", password: "Not-the-password1" },
    });
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownEmail.statusCode).toBe(401);
    expect(wrongPassword.json()).toEqual({
      message: "Wrong password",
      data: "Incorrect e-mail or password.",
    });
    expect(unknownEmail.body).toBe(wrongPassword.body);

    const chinese = await app.inject({
      method: "POST",
      url: "/v1/api/auth/login",
      headers: { "accept-language": "cn-ZH" },
      payload: { email: "nobody@wallet.example", password: "x" },
    });
    expect(chinese.json()).toEqual({ message: "Wrong password", data: "电子邮件或密码不正确。" });
  });

  it("tells a banned administrator with the right password whom to contact", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/v1/api/auth/login",
      payload: DEMO.banned,
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      message: "User is banned from login.",
      data: { email: "superadmin@wallet.example" },
    });
  });

  it("tells a disabled administrator it is disabled, not banned", async () => {
    const { admin, password } = await createAdmin(app, superToken, [0]);
    await testDb.database.db
      .update(administrators)
      .set({ status: "disabled" })
      .where(eq(administrators.id, admin.id));
    const response = await app.inject({
      method: "POST",
      url: "/v1/api/auth/login",
      payload: { email: admin.email, password },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      message: "User is disabled.",
      data: { email: "superadmin@wallet.example" },
    });
  });

  it("does not reveal a banned account to someone without its password", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/v1/api/auth/login",
      payload: { email: DEMO.banned.email, password: "Guess#12345" },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe("Wrong password");
  });

  it("names the missing field of a malformed login", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/v1/api/auth/login",
      payload: { email: DEMO.finance.email },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: "VALIDATION_ERROR",
      message: expect.stringContaining("password"),
      data: { issues: [expect.objectContaining({ path: "password" })] },
    });
  });

  it("uses the support e-mail setting when one is configured", async () => {
    const withContact = await createTestApp(testDb, { SUPPORT_EMAIL: "help@wallet.example" });
    try {
      // The seeded global setting wins over the environment; without it the environment applies.
      await testDb.database.db.delete(globalSettings).where(eq(globalSettings.key, "supportEmail"));
      const response = await withContact.inject({
        method: "POST",
        url: "/v1/api/auth/login",
        payload: DEMO.banned,
      });
      expect(response.json().data).toEqual({ email: "help@wallet.example" });
    } finally {
      await testDb.database.db
        .insert(globalSettings)
        .values({ key: "supportEmail", value: "superadmin@wallet.example" });
      await withContact.close();
    }
  });

  it("rate-limits attempts per client and e-mail with 429 RATE_LIMITED", async () => {
    const limited = await createTestApp(testDb, { LOGIN_RATE_LIMIT: "3" });
    try {
      const attempt = (email: string) =>
        limited.inject({
          method: "POST",
          url: "/v1/api/auth/login",
          payload: { email, password: "Wrong#Password1" },
        });
      for (let i = 0; i < 3; i += 1) {
        expect((await attempt("target@wallet.example")).statusCode).toBe(401);
      }
      const blocked = await attempt("TARGET@wallet.example");
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toMatchObject({ code: "RATE_LIMITED" });
      expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
      // Another e-mail from the same client is counted separately.
      expect((await attempt("other@wallet.example")).statusCode).toBe(401);
    } finally {
      await limited.close();
    }
  });
});

describe("token problems on any call", () => {
  it("401 Missing credential key without an Authorization header", async () => {
    const response = await account();
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: "Missing credential key" });
  });

  it("401 Invalid credential key for garbage", async () => {
    for (const token of ["garbage", "a.b.c", "Bearer ", "Bearer not.a.jwt"]) {
      const response = await account(token);
      expect(response.statusCode, token).toBe(401);
      expect(response.json(), token).toEqual({
        message: token === "Bearer " ? "Missing credential key" : "Invalid credential key",
      });
    }
  });

  it("401 Invalid credential key for a token signed with another secret", async () => {
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("1")
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("another-secret-another-secret-another-secret"));
    const response = await account(forged);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: "Invalid credential key" });
  });

  it("accepts the token raw or as a Bearer token", async () => {
    expect((await account(superToken)).statusCode).toBe(200);
    expect((await account(`Bearer ${superToken}`)).statusCode).toBe(200);
  });

  it("401 JWT expired once the token's lifetime has passed", async () => {
    // Long enough for the sign-in and the first call on a loaded machine (1 s was not, beside
    // the browser stories); then waited out by the token's own expiry, not a guess.
    const shortLived = await createTestApp(testDb, { JWT_TTL: "5s" });
    try {
      const { token } = await login(shortLived, DEMO.finance);
      expect(
        (await shortLived.inject({ url: "/v1/api/account/admin", headers: auth(token) }))
          .statusCode,
      ).toBe(200);
      const { exp } = JSON.parse(
        Buffer.from(token.replace(/^Bearer /, "").split(".")[1]!, "base64url").toString(),
      ) as { exp: number };
      await new Promise((resolve) => setTimeout(resolve, exp * 1000 + 1100 - Date.now()));
      const response = await shortLived.inject({
        url: "/v1/api/account/admin",
        headers: auth(token),
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: "JWT expired" });
    } finally {
      await shortLived.close();
    }
  });

  it("401 User not found once the administrator is deleted", async () => {
    const { admin, token } = await createAdmin(app, superToken, [0]);
    await testDb.database.db.delete(administrators).where(eq(administrators.id, admin.id));
    const response = await account(token);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: "User not found" });
  });

  it("403 User banned from login once the administrator is banned or disabled", async () => {
    for (const status of ["banned", "disabled"] as const) {
      const { admin, token } = await createAdmin(app, superToken, [0]);
      expect((await account(token)).statusCode).toBe(200);
      const ban = await app.inject({
        method: "PATCH",
        url: `/v1/api/administrators/${admin.id}/status`,
        headers: auth(superToken),
        payload: { status },
      });
      expect(ban.statusCode).toBe(200);
      const response = await account(token);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: "User banned from login" });
    }
  });

  it("records logins in the audit trail", async () => {
    const { admin } = await login(app, DEMO.finance);
    const entries = await testDb.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "auth.login"));
    expect(entries.some((entry) => entry.adminId === admin.id)).toBe(true);
  });
});
