/**
 * Issue 33, items 1 and 3: an authenticator app (TOTP) and recovery codes as a second factor at
 * sign-in, and step-up before sensitive actions. Codes are accepted one step either side of now
 * and never twice; recovery codes once each, in any case and with blanks; a code of the wrong
 * form is a clear 400 that costs no attempt; wrong codes count towards the account's lockout.
 */
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { secretBox, totpContext } from "../../server/auth/secret-box";
import { adminTotp } from "../../server/db/schema";
import { PERMISSION } from "../../src/shared/permissions";
import { addressesIn, auth, createAdmin, login, useSignedInApp } from "./support/app";
import {
  ageProof,
  codeOf,
  enrolTotp,
  forgetUsedCodes,
  freshCode,
  midStep,
  signInWithTotp,
} from "./support/factors";
import { A_REASON, approve, checkerToken } from "./support/four-eyes";
import { testEnv } from "./support/database";
import { expectError } from "./support/user-fixtures";

// The default window, whatever the other test files run with.
const suite = useSignedInApp({ STEP_UP_MINUTES: "5" });
const db = () => suite.testDb.database.db;

const nextAddress = addressesIn(34);
/** Each call from an address of its own: the limits per address are other tests' business. */
const post = (url: string, payload: unknown, token?: string) => {
  return suite.app.inject({
    method: "POST",
    url: `/v1${url}`,
    payload: payload as object,
    remoteAddress: nextAddress(),
    ...(token && { headers: auth(token) }),
  });
};

/** A new administrator with an authenticator app: its credentials, secret and recovery codes. */
async function adminWithTotp(permissions: number[] = [0]) {
  const { admin, token, password } = await createAdmin(suite.app, suite.token, permissions);
  const factor = await enrolTotp(suite.app, token);
  return { admin, token, credentials: { email: admin.email, password }, ...factor };
}

/** The password step: the sign-in's ticket. */
async function ticketFor(credentials: { email: string; password: string }) {
  const answer = await post("/api/auth/login", credentials);
  expect(answer.statusCode, answer.body).toBe(200);
  const body = answer.json<{
    secondFactor: { ticket: string; methods: string[] };
    token?: string;
  }>();
  expect(body.token).toBeUndefined();
  return body.secondFactor;
}

const secondFactor = (ticket: string, method: string, code: string) =>
  post("/api/auth/login/second-factor", { ticket, method, code });

describe("enrolling an authenticator app", () => {
  it("keeps the secret sealed in the database, where it opens only for its own administrator", async () => {
    const { admin, token } = await createAdmin(suite.app, suite.token, [0]);
    const started = await post("/api/account/factors/totp", undefined, token);
    const { secret } = started.json<{ secret: string }>();
    const [row] = await db().select().from(adminTotp).where(eq(adminTotp.adminId, admin.id));
    expect(row!.secret).toMatch(/^v1:[A-Za-z0-9_-]+$/);
    expect(row!.secret).not.toContain(secret);
    // Sealed for this administrator: the same sealed value on another's row does not open.
    const box = secretBox(testEnv("/unused").SECOND_FACTOR_KEY);
    expect(box.open(row!.secret, totpContext(admin.id))).toBe(secret);
    expect(() => box.open(row!.secret, totpContext(admin.id + 1))).toThrow(/SECOND_FACTOR_KEY/);
    expect(() =>
      secretBox("another-key-".repeat(4)).open(row!.secret, totpContext(admin.id)),
    ).toThrow();
    // The app's codes confirm it: the server opened it.
    const confirmed = await post(
      "/api/account/factors/totp/confirm",
      { code: await freshCode(secret) },
      token,
    );
    expect(confirmed.statusCode, confirmed.body).toBe(200);
  });

  it("is confirmed with a code the app shows, gives ten recovery codes once, and then is the account's", async () => {
    const { token } = await createAdmin(suite.app, suite.token, [0]);
    const started = await post("/api/account/factors/totp", undefined, token);
    expect(started.statusCode, started.body).toBe(200);
    const { secret, uri, qrCode } = started.json<{ secret: string; uri: string; qrCode: string }>();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toMatch(/^otpauth:\/\/totp\/UCSI%20Wallet:.+\?issuer=UCSI%20Wallet&secret=/);
    expect(qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    // Not confirmed yet: the password alone still signs in, and the account has no factor.
    const factors = await suite.app.inject({
      url: "/v1/api/account/factors",
      headers: auth(token),
    });
    expect(factors.json()).toEqual({
      totpSince: null,
      passkeys: [],
      recoveryCodesLeft: 0,
      methods: [],
    });

    expectError(
      await post("/api/account/factors/totp/confirm", { code: "12 34 5" }, token),
      400,
      "TOTP_CODE_FORMAT",
    );
    const wrong = String((Number(codeOf(secret)) + 500_000) % 1_000_000).padStart(6, "0");
    expectError(
      await post("/api/account/factors/totp/confirm", { code: wrong }, token),
      400,
      "WRONG_CODE",
    );
    const confirmed = await post(
      "/api/account/factors/totp/confirm",
      { code: await freshCode(secret) },
      token,
    );
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const { recoveryCodes } = confirmed.json<{ recoveryCodes: string[] }>();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes)
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);

    const after = await suite.app.inject({ url: "/v1/api/account/factors", headers: auth(token) });
    expect(after.json()).toMatchObject({
      recoveryCodesLeft: 10,
      methods: ["totp", "recovery-code"],
    });
    expectError(await post("/api/account/factors/totp", undefined, token), 409, "TOTP_ENROLLED");
    // Kept as digests: no recovery code is in the database as it was shown.
    const stored = await db().execute<{ digest: string }>(
      sql`select digest from admin_recovery_codes`,
    );
    for (const row of stored.rows) {
      for (const code of recoveryCodes) expect(row.digest).not.toContain(code.replaceAll("-", ""));
    }
  });
});

describe("signing in with a second factor", () => {
  it("asks for the code after the password, and the code finishes the sign-in", async () => {
    const { credentials, secret, admin } = await adminWithTotp();
    const { ticket, methods } = await ticketFor(credentials);
    expect(methods).toEqual(["totp", "recovery-code"]);
    const done = await secondFactor(ticket, "totp", await freshCode(secret));
    expect(done.statusCode, done.body).toBe(200);
    const { token, admin: signedIn } = done.json<{ token: string; admin: { id: number } }>();
    expect(signedIn.id).toBe(admin.id);
    expect(
      (await suite.app.inject({ url: "/v1/api/account/admin", headers: auth(token) })).statusCode,
    ).toBe(200);
    // The ticket is used up.
    await forgetUsedCodes(db(), admin.id, secret);
    expectError(
      await secondFactor(ticket, "totp", await freshCode(secret)),
      400,
      "LOGIN_TICKET_EXPIRED",
    );
  });

  it("never accepts a code twice; accepts the previous and the next step's code once each", async () => {
    const { credentials, secret, admin } = await adminWithTotp();
    // The enrolment used a step; start from a clean slate a step later.
    await db().update(adminTotp).set({ lastStep: null }).where(eq(adminTotp.adminId, admin.id));
    await midStep();
    const previous = codeOf(secret, -1);
    const current = codeOf(secret);
    const next = codeOf(secret, 1);
    const signIn = async (code: string) =>
      secondFactor((await ticketFor(credentials)).ticket, "totp", code);
    expect((await signIn(previous)).statusCode).toBe(200);
    expect((await signIn(current)).statusCode).toBe(200);
    expectError(await signIn(current), 400, "WRONG_CODE"); // replayed
    expectError(await signIn(previous), 400, "WRONG_CODE"); // older than one used
    expect((await signIn(next)).statusCode).toBe(200);
    expectError(await signIn(next), 400, "WRONG_CODE");
    // Two steps away is no code at all.
    expectError(await signIn(codeOf(secret, 3)), 400, "WRONG_CODE");
  });

  it("takes a recovery code in any case, with blanks or without dashes, once", async () => {
    const { credentials, recoveryCodes, token } = await adminWithTotp();
    const [first, second] = recoveryCodes as [string, string];
    const spaced = first.toLowerCase().replaceAll("-", " ");
    let { ticket } = await ticketFor(credentials);
    expect((await secondFactor(ticket, "recovery-code", spaced)).statusCode).toBe(200);
    ({ ticket } = await ticketFor(credentials));
    expectError(await secondFactor(ticket, "recovery-code", first), 400, "WRONG_CODE");
    expect(
      (await secondFactor(ticket, "recovery-code", second.replaceAll("-", ""))).statusCode,
    ).toBe(200);
    const factors = await suite.app.inject({
      url: "/v1/api/account/factors",
      headers: auth(token),
    });
    expect(factors.json()).toMatchObject({ recoveryCodesLeft: 8 });
  });

  it("refuses a code of the wrong form with a clear 400 that costs no attempt", async () => {
    const { credentials, secret } = await adminWithTotp();
    const { ticket } = await ticketFor(credentials);
    for (const code of ["12345", "1234567", "12a456", "１２３４５６", "12-34-56"]) {
      expectError(await secondFactor(ticket, "totp", code), 400, "TOTP_CODE_FORMAT");
    }
    for (const code of [
      "ABCD-EFGH-JKMN",
      "ABCD-EFGH-JKMN-PQRU",
      "ABCD EFGH JKMN PQRS T",
      "ABCD_EFGH_JKMN_PQRS",
    ]) {
      expectError(await secondFactor(ticket, "recovery-code", code), 400, "RECOVERY_CODE_FORMAT");
    }
    // Ten refusals of form, and the ticket (five wrong codes at most) still works; a code typed
    // in two groups of three is a code.
    const code = await freshCode(secret);
    const done = await secondFactor(ticket, "totp", `${code.slice(0, 3)} ${code.slice(3)}`);
    expect(done.statusCode, done.body).toBe(200);
  });

  it("ends the ticket after five wrong codes, and refuses tickets it never gave", async () => {
    const { credentials, secret } = await adminWithTotp();
    const { ticket } = await ticketFor(credentials);
    const wrong = String((Number(codeOf(secret)) + 333_333) % 1_000_000).padStart(6, "0");
    for (let i = 0; i < 5; i += 1)
      expectError(await secondFactor(ticket, "totp", wrong), 400, "WRONG_CODE");
    expectError(
      await secondFactor(ticket, "totp", await freshCode(secret)),
      400,
      "LOGIN_TICKET_EXPIRED",
    );
    expectError(await secondFactor("A".repeat(43), "totp", "123456"), 400, "LOGIN_TICKET_EXPIRED");
    for (const junk of ["short", "A".repeat(44), `${"A".repeat(42)}=`, `${"A".repeat(42)}\u0000`]) {
      expectError(await secondFactor(junk, "totp", "123456"), 400, "VALIDATION_ERROR");
    }
    const malformed = await post("/api/auth/login/second-factor", {
      ticket,
      method: "sms",
      code: "123456",
    });
    expect(malformed.statusCode).toBe(400);
  });

  it("counts wrong codes towards the account's lockout, across tickets, and a right password in between does not forget them", async () => {
    const { credentials, secret } = await adminWithTotp();
    const wrong = String((Number(codeOf(secret)) + 271_828) % 1_000_000).padStart(6, "0");
    for (let round = 0; round < 2; round += 1) {
      const { ticket } = await ticketFor(credentials);
      for (let i = 0; i < 5; i += 1)
        expectError(await secondFactor(ticket, "totp", wrong), 400, "WRONG_CODE");
    }
    // Ten wrong codes: locked, the password refused too, and nothing else is said about the account.
    const locked = await post("/api/auth/login", credentials);
    expectError(locked, 429, "ACCOUNT_LOCKED");
    const unknown = await post("/api/auth/login", {
      email: "nobody.33@wallet.example",
      password: "x",
    });
    expect(unknown.statusCode).toBe(401);
  });
});

describe("step-up", () => {
  it("asks for a fresh code before a sensitive action, and the same request then goes through", async () => {
    const { admin, credentials, secret } = await adminWithTotp([
      PERMISSION.user,
      PERMISSION.business,
      PERMISSION.admin,
    ]);
    const token = await signInWithTotp(suite.app, credentials, secret);
    const { admin: target } = await createAdmin(suite.app, suite.token, [0]);
    const change = () =>
      suite.app.inject({
        method: "PATCH",
        url: `/v1/api/administrators/${target.id}/permissions`,
        headers: { ...auth(token), ...A_REASON },
        payload: { permissions: [PERMISSION.user, PERMISSION.business] },
      });
    // Signed in with the code moments ago: no step-up asked.
    const first = await change();
    expect(first.statusCode, first.body).toBe(202);
    await ageProof(db(), admin.id, 6);
    const refused = await change();
    expectError(refused, 403, "STEP_UP_REQUIRED");
    expect(refused.json().data).toEqual({ methods: ["totp", "recovery-code"] });
    // Reading is not sensitive.
    expect(
      (await suite.app.inject({ url: "/v1/api/account/admin", headers: auth(token) })).statusCode,
    ).toBe(200);

    expectError(
      await post("/api/auth/step-up", { method: "password", code: credentials.password }, token),
      400,
      "STEP_UP_METHOD",
    );
    expectError(
      await post("/api/auth/step-up", { method: "totp", code: "000" }, token),
      400,
      "TOTP_CODE_FORMAT",
    );
    await forgetUsedCodes(db(), admin.id, secret);
    const stepped = await post(
      "/api/auth/step-up",
      { method: "totp", code: await freshCode(secret) },
      token,
    );
    expect(stepped.statusCode, stepped.body).toBe(204);
    // Through the step-up, to the change's own rules: one change of a record waits at a time.
    expectError(await change(), 409, "CHANGE_PENDING");
  });

  it("of an administrator without a second factor is the password, and the sign-in itself counts for five minutes", async () => {
    const { admin, token, password } = await createAdmin(suite.app, suite.token, [0]);
    const sensitive = () => post("/api/account/factors/totp", undefined, token);
    expect((await sensitive()).statusCode).toBe(200);
    await ageProof(db(), admin.id, 6);
    const refused = await sensitive();
    expectError(refused, 403, "STEP_UP_REQUIRED");
    expect(refused.json().data).toEqual({ methods: ["password"] });
    expectError(
      await post("/api/auth/step-up", { method: "totp", code: "123456" }, token),
      400,
      "STEP_UP_METHOD",
    );
    expectError(
      await post("/api/auth/step-up", { method: "password", code: "Wrong#Horse1" }, token),
      400,
      "WRONG_CURRENT_PASSWORD",
    );
    expect(
      (await post("/api/auth/step-up", { method: "password", code: password }, token)).statusCode,
    ).toBe(204);
    expect((await sensitive()).statusCode).toBe(200);
  });

  it("is asked of a session proved by the password alone once its holder has a second factor", async () => {
    const { admin, token } = await createAdmin(suite.app, suite.token, [0]);
    // Another session of the same administrator enrols the app.
    const other = await login(suite.app, { email: admin.email, password: "Correct#Horse1" });
    await enrolTotp(suite.app, other.token);
    const answer = await post("/api/account/factors/recovery-codes", undefined, token);
    expectError(answer, 403, "STEP_UP_REQUIRED");
  });
});

describe("the requirement of a second factor", () => {
  /** Sets the requirement as an approved change of the settings would (the setting's own test is global-settings'). */
  const require = async (value: string, codes: number[] = []) => {
    await db().execute(sql`
      insert into global_settings (key, value) values
        ('secondFactorRequired', to_jsonb(${value}::text)),
        ('secondFactorCodes', ${JSON.stringify(codes)}::jsonb)
      on conflict (key) do update set value = excluded.value`);
  };

  it("takes an administrator without one to enrolment after the password, and nowhere else until it is confirmed", async () => {
    const { admin, password } = await createAdmin(suite.app, suite.token, [PERMISSION.user]);
    try {
      await require("codes", [PERMISSION.user]);
      const signedIn = await post("/api/auth/login", { email: admin.email, password });
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      const { token, enrolmentRequired } = signedIn.json<{
        token: string;
        enrolmentRequired: boolean;
      }>();
      expect(enrolmentRequired).toBe(true);
      const users = await suite.app.inject({
        url: "/v1/api/users/aggregation",
        headers: auth(token),
      });
      expectError(users, 403, "SECOND_FACTOR_REQUIRED");
      // What enrolment needs is served.
      expect(
        (await suite.app.inject({ url: "/v1/api/account/admin", headers: auth(token) })).statusCode,
      ).toBe(200);
      const { secret } = await enrolTotp(suite.app, token);
      expect(
        (await suite.app.inject({ url: "/v1/api/users/aggregation", headers: auth(token) }))
          .statusCode,
      ).toBe(200);
      // Required: it cannot be removed.
      expectError(
        await suite.app.inject({
          method: "DELETE",
          url: "/v1/api/account/factors/totp",
          headers: auth(token),
        }),
        409,
        "SECOND_FACTOR_REQUIRED",
      );
      // Next time, the code after the password.
      const again = await signInWithTotp(suite.app, { email: admin.email, password }, secret);
      expect(again).toBeTruthy();
      // Not required of those holding none of the codes.
      const other = await createAdmin(suite.app, suite.token, [PERMISSION.business]);
      const free = await post("/api/auth/login", {
        email: other.admin.email,
        password: other.password,
      });
      expect(free.json()).not.toHaveProperty("enrolmentRequired", true);
    } finally {
      await require("nobody");
    }
  });
});

describe("an administrator who may manage another", () => {
  it("resets another administrator's second factor (a second approver, a step-up), and their sessions end", async () => {
    const { admin, token, credentials, secret } = await adminWithTotp();
    const signedIn = await signInWithTotp(suite.app, credentials, secret);
    const reset = () =>
      suite.app.inject({
        method: "POST",
        url: `/v1/api/administrators/${admin.id}/factors/reset`,
        headers: auth(suite.token),
        payload: { remark: "Lost phone, identity checked by video call" },
      });
    // Not by a colleague lacking a code the administrator holds (who may manage whom).
    const colleague = await createAdmin(suite.app, suite.token, [
      PERMISSION.business,
      PERMISSION.admin,
    ]);
    const refused = await suite.app.inject({
      method: "POST",
      url: `/v1/api/administrators/${admin.id}/factors/reset`,
      headers: auth(colleague.token),
      payload: { remark: "Not theirs to do" },
    });
    expectError(refused, 403, "PERMISSION_NOT_HELD");
    const held = await reset();
    expect(held.statusCode, held.body).toBe(202);
    const requestId = held.json<{ changeRequest: { id: number } }>().changeRequest.id;
    const approved = await approve(suite.app, await checkerToken(suite.app), requestId);
    expect(approved.statusCode, approved.body).toBe(200);
    for (const ended of [token, signedIn]) {
      expect(
        (await suite.app.inject({ url: "/v1/api/account/admin", headers: auth(ended) })).statusCode,
      ).toBe(401);
    }
    // The password alone signs in again, and there is nothing left to reset.
    const after = await post("/api/auth/login", credentials);
    expect(after.json()).toHaveProperty("token");
    expectError(await reset(), 409, "NO_SECOND_FACTOR");
  });

  it("sees another administrator's sessions and ends them all", async () => {
    const { admin, token } = await createAdmin(suite.app, suite.token, [0]);
    const listed = await suite.app.inject({
      url: `/v1/api/administrators/${admin.id}/sessions`,
      headers: auth(suite.token),
    });
    expect(listed.json<{ data: unknown[] }>().data).toHaveLength(1);
    const ended = await suite.app.inject({
      method: "POST",
      url: `/v1/api/administrators/${admin.id}/sessions/end`,
      headers: auth(suite.token),
    });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toEqual({ ended: 1 });
    expect(
      (await suite.app.inject({ url: "/v1/api/account/admin", headers: auth(token) })).statusCode,
    ).toBe(401);
    const own = await suite.app.inject({
      method: "POST",
      url: `/v1/api/administrators/${(await login(suite.app, { email: "superadmin@wallet.example", password: "SuperAdmin#2026" })).admin.id}/sessions/end`,
      headers: auth(suite.token),
    });
    expectError(own, 403, "OWN_ACCOUNT");
  });
});
