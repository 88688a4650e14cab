/**
 * The wallet user's password: the e-mailed link is checked, used once to set a password under
 * the administrators' rules, and the wallet app then signs in with it (issue 17, item 1).
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { administrators, userPasswordResets, users } from "../../server/db/schema";
import {
  issueResetLink,
  RESET_TOKEN_TTL_MS,
  USER_RESET_LINKS,
} from "../../server/services/password-reset";
import { createTestApp } from "./support/app";
import {
  auditEntries,
  call,
  expectError,
  findUser,
  insertUser,
  insertWalletUser,
  useUserDeskSuite,
  type UserDeskSuite,
} from "./support/user-fixtures";

const suite = useUserDeskSuite();
const GOOD_PASSWORD = "NewWallet#2026";

const post = (url: string, payload: unknown) =>
  suite.app.inject({ method: "POST", url: `/v1${url}`, payload: payload as object });
const check = (token: string, app = suite.app, remoteAddress?: string) =>
  app.inject({
    method: "POST",
    url: "/v1/api/app/password-reset/check",
    payload: { token },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
const setPassword = (token: string, password = GOOD_PASSWORD) =>
  post("/api/app/password-reset", { token, password });
const signIn = (accountNumber: string, password: string) =>
  post("/api/app/sign-in", { accountNumber, password });
const me = (token: string) =>
  suite.app.inject({
    method: "GET",
    url: "/v1/api/app/me",
    headers: { authorization: `Bearer ${token}` },
  });

async function deskAdmin(s: UserDeskSuite) {
  const [admin] = await s.db
    .select()
    .from(administrators)
    .where(eq(administrators.id, s.deskAdminId));
  return admin!;
}

/** A reset link for a fresh user, as the back office's Reset Password issues it. */
async function issuedLink(now = new Date(), balanceSen = 0) {
  const user =
    balanceSen > 0 ? await insertWalletUser(suite.db, balanceSen) : await insertUser(suite.db);
  return { user, token: await issueLinkOf(user, now) };
}

/** A new link of `user`'s, as the users module's password reset issues it (the mail aside). */
async function issueLinkOf(user: { id: number }, now = new Date()) {
  const actor = await deskAdmin(suite);
  const link = await suite.db.transaction((tx) =>
    issueResetLink(tx, USER_RESET_LINKS, user.id, actor, now),
  );
  return link.token;
}

describe("the e-mailed reset link", () => {
  it("says whose it is and until when, changing nothing", async () => {
    const { user, token } = await issuedLink();
    const response = await check(token);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ accountNumber: string; name: string; expiresAt: string }>();
    expect(body).toMatchObject({ accountNumber: user.accountNumber, name: user.name });
    expect(Date.parse(body.expiresAt) - Date.now()).toBeGreaterThan(RESET_TOKEN_TTL_MS - 60_000);
    const [row] = await suite.db
      .select()
      .from(userPasswordResets)
      .where(eq(userPasswordResets.userId, user.id));
    expect(row!.usedAt).toBeNull();
  });

  it("sets the password once, audited, and then the link is used", async () => {
    const { user, token } = await issuedLink();
    const response = await setPassword(token);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ accountNumber: user.accountNumber });
    const stored = await findUser(suite.db, user.id);
    expect(stored!.passwordHash).toMatch(/^scrypt\$/);
    expect(stored!.passwordHash).not.toContain(GOOD_PASSWORD);
    expect(stored!.credentialVersion).toBe(user.credentialVersion + 1);
    const [entry] = await auditEntries(suite.db, "users", user.id);
    expect(entry).toMatchObject({ action: "user.password_reset_completed", adminId: null });
    expect(JSON.stringify(entry)).not.toContain(token);

    expectError(await setPassword(token, "Another#2026x"), 410, "RESET_LINK_USED");
    expectError(await check(token), 410, "RESET_LINK_USED");
    expect((await findUser(suite.db, user.id))!.passwordHash).toBe(stored!.passwordHash);
  });

  it("refuses a weak password with the broken rules, keeping the link usable", async () => {
    const { user, token } = await issuedLink();
    const body = expectError(await setPassword(token, "short"), 400, "WEAK_PASSWORD") as {
      data?: { rules: string[] };
    };
    expect(body.data?.rules).toEqual(expect.arrayContaining(["length", "uppercase", "digit"]));
    expect((await findUser(suite.db, user.id))!.passwordHash).toBeNull();
    expect((await check(token)).statusCode).toBe(200);
  });

  it("refuses an expired link, a retired one and an unknown one, each by its code", async () => {
    const old = await issuedLink(new Date(Date.now() - RESET_TOKEN_TTL_MS - 1000));
    expectError(await check(old.token), 410, "RESET_LINK_EXPIRED");
    expectError(await setPassword(old.token), 410, "RESET_LINK_EXPIRED");
    expect((await findUser(suite.db, old.user.id))!.passwordHash).toBeNull();

    const first = await issuedLink();
    await issueLinkOf(first.user);
    expectError(await check(first.token), 410, "RESET_LINK_USED");

    expectError(await check("A".repeat(43)), 404, "RESET_LINK_INVALID");
    expectError(await setPassword("A".repeat(43)), 404, "RESET_LINK_INVALID");
  });

  it("refuses malformed bodies with 400 and changes nothing", async () => {
    const { user, token } = await issuedLink();
    for (const payload of [
      {},
      { token: "short" },
      { token: `${token.slice(0, 42)}\u0000` },
      { token, password: "Good#Pass1\u0000" },
      { token, password: 12345678 },
      { token, password: GOOD_PASSWORD, extra: 1 },
    ]) {
      const response = await post("/api/app/password-reset", payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await findUser(suite.db, user.id))!.passwordHash).toBeNull();
    expect((await check(token)).statusCode).toBe(200);
  });

  it("lets exactly one of two simultaneous uses of a link win", async () => {
    const { token } = await issuedLink();
    const answers = await Promise.all([
      setPassword(token, "FirstOne#2026"),
      setPassword(token, "SecondOne#2026"),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 410]);
  });

  it("counts checks and uses per client address (PASSWORD_RESET_RATE_LIMIT_PER_IP)", async () => {
    const limited = await createTestApp(suite.testDb, { PASSWORD_RESET_RATE_LIMIT_PER_IP: "3" });
    try {
      const statuses = [];
      // An address of its own: the counters are the database's, shared with the other tests.
      for (let i = 0; i < 4; i++) {
        statuses.push((await check("B".repeat(43), limited, "203.0.113.7")).statusCode);
      }
      expect(statuses).toEqual([404, 404, 404, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe("the wallet app's sign-in", () => {
  it("works with the password set through the link, and shows the wallet's balance", async () => {
    const { user, token } = await issuedLink(new Date(), 12_345);
    expectError(await signIn(user.accountNumber, GOOD_PASSWORD), 401, "WRONG_CREDENTIALS");
    expect((await setPassword(token)).statusCode).toBe(200);

    expectError(await signIn(user.accountNumber, "Wrong#Pass1"), 401, "WRONG_CREDENTIALS");
    expectError(await signIn("NO-SUCH-ACCOUNT", GOOD_PASSWORD), 401, "WRONG_CREDENTIALS");
    const response = await signIn(user.accountNumber, GOOD_PASSWORD);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ token: string; profile: Record<string, unknown> }>();
    expect(body.profile).toEqual({
      accountNumber: user.accountNumber,
      name: user.name,
      role: user.role,
      approvalStatus: user.approvalStatus,
      balanceSen: 12_345,
    });
    const profile = await me(body.token);
    expect(profile.statusCode, profile.body).toBe(200);
    expect(profile.json()).toEqual(body.profile);
  });

  it("keeps the app's tokens and the console's apart, and ends old tokens on a new reset", async () => {
    const { user, token } = await issuedLink();
    await setPassword(token);
    const { token: walletToken } = (await signIn(user.accountNumber, GOOD_PASSWORD)).json<{
      token: string;
    }>();
    // A wallet token opens no console route, and a console token is no wallet token.
    expect((await call(suite.app, walletToken, "GET", "/api/account/admin")).statusCode).toBe(401);
    expect((await me(suite.desk)).statusCode).toBe(401);

    const again = await issueLinkOf(user);
    expect((await setPassword(again, "Changed#2026")).statusCode).toBe(200);
    expect((await me(walletToken)).statusCode).toBe(401);
    expect((await signIn(user.accountNumber, "Changed#2026")).statusCode).toBe(200);
  });

  it("refuses a banned user with its own code", async () => {
    const { user, token } = await issuedLink();
    await setPassword(token);
    await suite.db.update(users).set({ isBanned: true }).where(eq(users.id, user.id));
    expectError(await signIn(user.accountNumber, GOOD_PASSWORD), 403, "USER_BANNED");
  });
});
