/**
 * Issue 16, item 2: a token stops working the moment it should: at logout, and for every older
 * token when the administrator's password is changed or reset, their e-mail changes, or they are
 * banned or disabled. A token's subject is an id written plainly.
 */
import { decodeJwt, SignJWT } from "jose";
import { describe, expect, it } from "vitest";

import { ADMINISTRATOR_RESET_LINKS, issueResetLink } from "../../server/services/password-reset";
import { findAdministratorByEmail } from "../../server/services/administrators";
import { DEMO, auth, createAdmin, login, useSignedInApp } from "./support/app";
import { testEnv } from "./support/database";
import { A_REASON, injectApproved } from "./support/four-eyes";

const suite = useSignedInApp();

const me = (token: string) =>
  suite.app.inject({ method: "GET", url: "/v1/api/account/admin", headers: auth(token) });
const logout = (token: string) =>
  suite.app.inject({ method: "POST", url: "/v1/api/auth/logout", headers: auth(token) });
/** The edit form (`""`) or one of the module's declared actions (`"/status"`, `"/permissions"`). */
const patch = (id: number, payload: object, path = "", token = suite.token) =>
  suite.app.inject({
    method: "PATCH",
    url: `/v1/api/administrators/${id}${path}`,
    payload,
    headers: auth(token),
  });

async function expectRefused(token: string) {
  const response = await me(token);
  expect(response.statusCode).toBe(401);
  expect(response.json()).toEqual({ message: "Invalid credential key" });
}

describe("logout", () => {
  it("revokes the presented token at once, and only that one", async () => {
    const { admin, password } = await createAdmin(suite.app, suite.token, [0]);
    const first = (await login(suite.app, { email: admin.email, password })).token;
    const second = (await login(suite.app, { email: admin.email, password })).token;
    expect((await me(first)).statusCode).toBe(200);
    const answer = await logout(first);
    expect(answer.statusCode).toBe(204);
    await expectRefused(first);
    expect((await logout(first)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(200);
  });

  it("needs a session", async () => {
    expect(
      (await suite.app.inject({ method: "POST", url: "/v1/api/auth/logout" })).statusCode,
    ).toBe(401);
  });
});

describe("every older token ends", () => {
  it("when the password is set through a reset link", async () => {
    const { admin, token } = await createAdmin(suite.app, suite.token, [0]);
    const db = suite.testDb.database.db;
    const superAdmin = await findAdministratorByEmail(db, DEMO.superAdmin.email);
    const reset = await db.transaction((tx) =>
      issueResetLink(tx, ADMINISTRATOR_RESET_LINKS, admin.id, superAdmin!),
    );
    const done = await suite.app.inject({
      method: "POST",
      url: "/v1/api/auth/password-reset",
      payload: { token: reset.token, password: "Reset#By2026" },
    });
    expect(done.statusCode, done.body).toBe(200);
    await expectRefused(token);
    await login(suite.app, { email: admin.email, password: "Reset#By2026" });
  });

  it("when the e-mail changes", async () => {
    const { admin, token } = await createAdmin(suite.app, suite.token, [0]);
    const email = `moved.${Date.now()}@wallet.example`;
    expect((await patch(admin.id, { email })).statusCode).toBe(200);
    await expectRefused(token);
  });

  it.each(["banned", "disabled"])("when %s, and again after reinstatement", async (status) => {
    const { admin, token } = await createAdmin(suite.app, suite.token, [0]);
    expect((await patch(admin.id, { status }, "/status")).statusCode).toBe(200);
    const refused = await me(token);
    expect(refused.statusCode).toBe(403);
    expect((await patch(admin.id, { status: "active" }, "/status")).statusCode).toBe(200);
    await expectRefused(token);
  });

  it("but a change of name or permissions keeps the sessions", async () => {
    const { admin, token } = await createAdmin(suite.app, suite.token, [0]);
    expect((await patch(admin.id, { name: "Renamed" })).statusCode).toBe(200);
    const permissions = await injectApproved(suite.app, {
      method: "PATCH",
      url: `/v1/api/administrators/${admin.id}/permissions`,
      payload: { permissions: [0, 4] },
      headers: { ...auth(suite.token), ...A_REASON },
    });
    expect(permissions.statusCode, permissions.body).toBe(200);
    expect((await me(token)).statusCode).toBe(200);
  });
});

describe("a token's subject", () => {
  const secret = testEnv("/unused").JWT_SECRET;
  // Signed with the server's key, in the session of a real sign-in (a made-up jti names none).
  let jti = "";
  const forge = (subject: string) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ ver: 0 })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(subject)
      .setJti(jti)
      .setIssuer("ucsi-wallet-reference-server")
      .setAudience("ucsi-wallet-back-office")
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(new TextEncoder().encode(secret));
  };

  it("is an id written plainly; anything else is an invalid credential", async () => {
    const signedIn = await login(suite.app, DEMO.superAdmin);
    const superId = signedIn.admin.id;
    jti = decodeJwt(signedIn.token).jti!;
    expect((await me(await forge(String(superId)))).statusCode).toBe(200);
    for (const subject of [
      `${superId}e0`,
      ` ${superId}`,
      `0x${superId}`,
      `0${superId}`,
      "2147483648",
    ]) {
      const response = await me(await forge(subject));
      expect(response.statusCode, subject).toBe(401);
      expect(response.json()).toEqual({ message: "Invalid credential key" });
    }
  });
});
