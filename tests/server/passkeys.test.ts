/**
 * Issue 33, item 1: passkeys (WebAuthn) for administrators, through HTTP with a software
 * authenticator that signs as a real one does. Registered after a challenge and bound to the
 * site; the second factor after the password, or a sign-in alone with a verified user; a step-up.
 * Every challenge is for one purpose and one administrator and is answered once; a signature
 * counter that goes back, another site's answer or a wrong key is refused alike.
 */
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { adminPasskeys, adminSessions } from "../../server/db/schema";
import { PERMISSION } from "../../src/shared/permissions";
import { addressesIn, auth, createAdmin, useSignedInApp } from "./support/app";
import { ageProof, enrolTotp } from "./support/factors";
import { A_REASON } from "./support/four-eyes";
import { SoftPasskey } from "./support/passkey-authenticator";
import { expectError } from "./support/user-fixtures";

const SITE = { rpId: "console.wallet.example", origin: "https://console.wallet.example" };
const suite = useSignedInApp({ PUBLIC_URL: SITE.origin, STEP_UP_MINUTES: "5" });
const db = () => suite.testDb.database.db;

const nextAddress = addressesIn(35);
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

interface Options {
  challenge: string;
  allowCredentials?: { id: string }[];
  userVerification?: string;
  excludeCredentials?: { id: string }[];
  rp?: { id: string };
}

/** Registers `passkey` for `token`'s holder: the server's answer. */
async function register(token: string, passkey: SoftPasskey, name = "Laptop") {
  const options = await post("/api/account/passkeys/challenge", undefined, token);
  expect(options.statusCode, options.body).toBe(200);
  return post(
    "/api/account/passkeys",
    { name, credential: passkey.register(options.json<Options>()) },
    token,
  );
}

/** A new administrator with a registered passkey. */
async function adminWithPasskey(permissions: number[] = [0]) {
  const created = await createAdmin(suite.app, suite.token, permissions);
  const passkey = new SoftPasskey(SITE);
  const registered = await register(created.token, passkey);
  expect(registered.statusCode, registered.body).toBe(200);
  return {
    ...created,
    passkey,
    credentials: { email: created.admin.email, password: created.password },
  };
}

/** The password step: the ticket for the second factor, and the methods offered. */
async function ticketFor(credentials: { email: string; password: string }) {
  const answer = await post("/api/auth/login", credentials);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<{ secondFactor: { ticket: string; methods: string[] } }>().secondFactor;
}

async function challengeFor(ticket?: string) {
  const answer = await post("/api/auth/passkey/challenge", ticket ? { ticket } : {});
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<Options>();
}

describe("registering a passkey", () => {
  it("binds it to the site, gives recovery codes with the first factor, and lists it", async () => {
    const { admin, token } = await createAdmin(suite.app, suite.token, [0]);
    const options = await post("/api/account/passkeys/challenge", undefined, token);
    expect(options.statusCode, options.body).toBe(200);
    const creation = options.json<Options>();
    expect(creation.rp).toMatchObject({ id: SITE.rpId });
    const passkey = new SoftPasskey(SITE);
    const added = await post(
      "/api/account/passkeys",
      { name: "  YubiKey  ", credential: passkey.register(creation) },
      token,
    );
    expect(added.statusCode, added.body).toBe(200);
    const body = added.json<{ passkey: { name: string }; recoveryCodes: string[] }>();
    expect(body.passkey).toMatchObject({ name: "YubiKey", lastUsedAt: null });
    expect(body.recoveryCodes).toHaveLength(10);

    const factors = await suite.app.inject({
      url: "/v1/api/account/factors",
      headers: auth(token),
    });
    expect(factors.json()).toMatchObject({
      totpSince: null,
      passkeys: [{ name: "YubiKey" }],
      recoveryCodesLeft: 10,
      methods: ["passkey", "recovery-code"],
    });
    const shown = await suite.app.inject({
      url: `/v1/api/administrators/${admin.id}`,
      headers: auth(suite.token),
    });
    expect(shown.json()).toMatchObject({ hasSecondFactor: true });

    // A second passkey: no new recovery codes; its challenge excludes the first.
    const next = await post("/api/account/passkeys/challenge", undefined, token);
    expect(next.json<Options>().excludeCredentials?.map((c) => c.id)).toEqual([passkey.id]);
    const second = await post(
      "/api/account/passkeys",
      { name: "Phone", credential: new SoftPasskey(SITE).register(next.json<Options>()) },
      token,
    );
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).not.toHaveProperty("recoveryCodes");
    // The same authenticator again (a browser that ignored the exclusion): refused.
    expectError(await register(token, passkey), 409, "PASSKEY_EXISTS");
  });

  it("refuses another site's answer, an answer given twice, and another administrator's challenge", async () => {
    const { token } = await createAdmin(suite.app, suite.token, [0]);
    const other = await createAdmin(suite.app, suite.token, [0]);
    const passkey = new SoftPasskey(SITE);

    const phished = await post("/api/account/passkeys/challenge", undefined, token);
    const fromPhishingSite = passkey.register(
      phished.json<Options>(),
      "https://console.wallet.example.evil.test",
    );
    expectError(
      await post("/api/account/passkeys", { name: "Key", credential: fromPhishingSite }, token),
      400,
      "PASSKEY_FAILED",
    );
    // That challenge is gone even though its answer failed.
    expectError(
      await post(
        "/api/account/passkeys",
        { name: "Key", credential: passkey.register(phished.json<Options>()) },
        token,
      ),
      400,
      "PASSKEY_FAILED",
    );

    const theirs = await post("/api/account/passkeys/challenge", undefined, other.token);
    expectError(
      await post(
        "/api/account/passkeys",
        { name: "Key", credential: passkey.register(theirs.json<Options>()) },
        token,
      ),
      400,
      "PASSKEY_FAILED",
    );
    const none = await db()
      .select()
      .from(adminPasskeys)
      .where(eq(adminPasskeys.credentialId, passkey.id));
    expect(none).toEqual([]);
  });

  it("refuses a malformed answer with a clear 400 and keeps nothing", async () => {
    const { token } = await createAdmin(suite.app, suite.token, [0]);
    const options = await post("/api/account/passkeys/challenge", undefined, token);
    const credential = new SoftPasskey(SITE).register(options.json<Options>());
    for (const bad of [
      { ...credential, id: "abc\u0000def" },
      { ...credential, type: "password" },
      {
        ...credential,
        response: { ...credential.response, attestationObject: "x".repeat(70_000) },
      },
    ]) {
      const answer = await post("/api/account/passkeys", { name: "Key", credential: bad }, token);
      expect(answer.statusCode, answer.body).toBe(400);
    }
    expect(
      (await post("/api/account/passkeys", { name: "\u0000", credential }, token)).statusCode,
    ).toBe(400);
  });
});

describe("signing in with a passkey", () => {
  it("is the second factor after the password, once per challenge", async () => {
    const { admin, passkey, credentials } = await adminWithPasskey();
    const { ticket, methods } = await ticketFor(credentials);
    expect(methods).toEqual(["passkey", "recovery-code"]);
    const options = await challengeFor(ticket);
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([passkey.id]);
    const answer = passkey.answer(options);
    const signedIn = await post("/api/auth/login/second-factor", {
      ticket,
      method: "passkey",
      credential: answer,
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const [session] = await db()
      .select({ verifiedBy: adminSessions.verifiedBy })
      .from(adminSessions)
      .where(eq(adminSessions.adminId, admin.id))
      .orderBy(sql`${adminSessions.createdAt} desc`)
      .limit(1);
    expect(session?.verifiedBy).toBe("passkey");
    const [kept] = await db()
      .select()
      .from(adminPasskeys)
      .where(eq(adminPasskeys.adminId, admin.id));
    expect(kept?.lastUsedAt).not.toBeNull();

    // The same answer again, on a new ticket: its challenge was used.
    const again = await ticketFor(credentials);
    expectError(
      await post("/api/auth/login/second-factor", {
        ticket: again.ticket,
        method: "passkey",
        credential: answer,
      }),
      400,
      "PASSKEY_FAILED",
    );
  });

  it("refuses a counter that went back (a cloned authenticator) and another administrator's passkey", async () => {
    const first = await adminWithPasskey();
    const second = await adminWithPasskey();
    const { ticket } = await ticketFor(first.credentials);
    const options = await challengeFor(ticket);
    const good = first.passkey.answer(options);
    first.passkey.counter -= 1;
    const cloned = first.passkey.answer(await challengeFor(ticket));
    expect(
      (await post("/api/auth/login/second-factor", { ticket, method: "passkey", credential: good }))
        .statusCode,
    ).toBe(200);
    const next = await ticketFor(first.credentials);
    expectError(
      await post("/api/auth/login/second-factor", {
        ticket: next.ticket,
        method: "passkey",
        credential: cloned,
      }),
      400,
      "PASSKEY_FAILED",
    );
    // The second administrator's passkey, answering a challenge made for the first one's ticket.
    const theirs = second.passkey.answer(await challengeFor(next.ticket));
    expectError(
      await post("/api/auth/login/second-factor", {
        ticket: next.ticket,
        method: "passkey",
        credential: theirs,
      }),
      400,
      "PASSKEY_FAILED",
    );
  });

  it("refuses an answer from another site, to a challenge never made, or malformed, with one 400", async () => {
    const { passkey, credentials } = await adminWithPasskey();
    const { ticket } = await ticketFor(credentials);
    const send = (credential: unknown) =>
      post("/api/auth/login/second-factor", { ticket, method: "passkey", credential });
    const phished = passkey.answer(await challengeFor(ticket), {
      origin: "https://console-wallet.example",
    });
    expectError(await send(phished), 400, "PASSKEY_FAILED");
    const invented = passkey.answer({ challenge: Buffer.alloc(32, 7).toString("base64url") });
    expectError(await send(invented), 400, "PASSKEY_FAILED");
    const good = passkey.answer(await challengeFor(ticket));
    const notJson = {
      ...good,
      response: {
        ...good.response,
        clientDataJSON: Buffer.from("{challenge").toString("base64url"),
      },
    };
    expectError(await send(notJson), 400, "PASSKEY_FAILED");
    for (const malformed of [
      { ...good, response: { ...good.response, signature: "not base64!" } },
      { ...good, response: { ...good.response, signature: "A".repeat(4096) } },
      { ...good, id: "" },
      { ...good, response: undefined },
      "a passkey",
    ]) {
      const answer = await send(malformed);
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json().code).not.toBe("PASSKEY_FAILED");
    }
    // Three wrong answers on the ticket (of five it survives): the good one still signs in.
    expect((await send(good)).statusCode).toBe(200);
  });

  it("signs in with the passkey alone when the authenticator verified its user", async () => {
    const { admin, passkey } = await adminWithPasskey();
    const options = await challengeFor();
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(options.userVerification).toBe("required");
    const signedIn = await post("/api/auth/login/passkey", { credential: passkey.answer(options) });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json()).toMatchObject({ admin: { id: admin.id } });

    // Without user verification (presence only), or a passkey nobody registered: refused alike.
    const unverified = passkey.answer(await challengeFor(), { userVerified: false });
    expectError(
      await post("/api/auth/login/passkey", { credential: unverified }),
      400,
      "PASSKEY_FAILED",
    );
    const stranger = new SoftPasskey(SITE).answer(await challengeFor());
    expectError(
      await post("/api/auth/login/passkey", { credential: stranger }),
      400,
      "PASSKEY_FAILED",
    );
    // A challenge made for a ticket's second factor signs nobody in alone.
    const { ticket } = await ticketFor({ email: admin.email, password: "Correct#Horse1" });
    const forTicket = passkey.answer(await challengeFor(ticket));
    expectError(
      await post("/api/auth/login/passkey", { credential: forTicket }),
      400,
      "PASSKEY_FAILED",
    );

    // A disabled administrator's passkey is theirs, and still does not let them in.
    await db().execute(sql`update administrators set status = 'disabled' where id = ${admin.id}`);
    const disabled = await post("/api/auth/login/passkey", {
      credential: passkey.answer(await challengeFor()),
    });
    expect(disabled.statusCode).toBe(403);
  });
});

describe("a step-up with a passkey", () => {
  it("answers a step-up challenge, and the refused change then goes through", async () => {
    const { admin, token, passkey } = await adminWithPasskey([0, PERMISSION.admin]);
    const { admin: target } = await createAdmin(suite.app, suite.token, [0]);
    const change = () =>
      suite.app.inject({
        method: "PATCH",
        url: `/v1/api/administrators/${target.id}/status`,
        headers: { ...auth(token), ...A_REASON },
        payload: { status: "disabled" },
      });
    await ageProof(db(), admin.id, 6);
    const refused = await change();
    expectError(refused, 403, "STEP_UP_REQUIRED");
    expect(refused.json().data).toEqual({ methods: ["passkey", "recovery-code"] });

    const options = await post("/api/auth/step-up/challenge", undefined, token);
    expect(options.statusCode, options.body).toBe(200);
    // A sign-in's challenge does not do for a step-up.
    expectError(
      await post(
        "/api/auth/step-up",
        { method: "passkey", credential: passkey.answer(await challengeFor()) },
        token,
      ),
      400,
      "PASSKEY_FAILED",
    );
    const stepped = await post(
      "/api/auth/step-up",
      { method: "passkey", credential: passkey.answer(options.json<Options>()) },
      token,
    );
    expect(stepped.statusCode, stepped.body).toBe(204);
    const applied = await change();
    expect(applied.statusCode, applied.body).toBe(200);
  });
});

describe("removing a passkey", () => {
  it("keeps the recovery codes while another factor remains, and takes them with the last", async () => {
    const { token } = await adminWithPasskey();
    await enrolTotp(suite.app, token);
    const list = async () =>
      (await suite.app.inject({ url: "/v1/api/account/factors", headers: auth(token) })).json<{
        passkeys: { id: number }[];
        recoveryCodesLeft: number;
        methods: string[];
      }>();
    const remove = (id: number) =>
      suite.app.inject({
        method: "DELETE",
        url: `/v1/api/account/passkeys/${id}`,
        headers: auth(token),
      });
    const [passkey] = (await list()).passkeys;
    expect((await remove(passkey!.id)).statusCode).toBe(204);
    expect(await list()).toMatchObject({
      passkeys: [],
      recoveryCodesLeft: 10,
      methods: ["totp", "recovery-code"],
    });
    expect((await remove(passkey!.id)).statusCode).toBe(404);
    // Another administrator's passkey is not found either.
    const other = await adminWithPasskey();
    const [theirs] = await db()
      .select()
      .from(adminPasskeys)
      .where(eq(adminPasskeys.adminId, other.admin.id));
    expect((await remove(theirs!.id)).statusCode).toBe(404);
    expect((await remove(Number.MAX_SAFE_INTEGER)).statusCode).toBe(400);

    const app = await suite.app.inject({
      method: "DELETE",
      url: "/v1/api/account/factors/totp",
      headers: auth(token),
    });
    expect(app.statusCode, app.body).toBe(204);
    expect(await list()).toMatchObject({ recoveryCodesLeft: 0, methods: [] });
  });
});
