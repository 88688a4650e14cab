/**
 * Issue 30: an administrator holding only Admin (8) set a more powerful colleague's password,
 * signed in as them and acted with codes it did not hold. The rules: nobody sets another's
 * password (a reset link goes to the owner's own e-mail); acting on another administrator at all
 * needs every code that administrator holds; a super administrator only by a super administrator.
 *
 * The matrix is generated: every operation of the OpenAPI document that acts on an existing
 * administrator (a path id under /administrators, or an `admin_id` in the body) must have its
 * requests listed below, or the first test fails; each is then tried by every actor whose codes
 * are a strict subset of the target's, and by one holding them all (which must succeed, so the
 * refusals are not a broken request).
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";

import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { App } from "../../server/app";
import {
  administratorPasswordResets,
  administrators,
  adminTotp,
  auditLog,
} from "../../server/db/schema";
import { PERMISSION, PERMISSION_CODES } from "../../src/shared/permissions";
import type { AdminDto } from "../../src/shared/schemas/administrators";
import { auth, createAdmin, createTestApp, DEMO, login } from "./support/app";
import { createTestDatabase, type TestDatabase } from "./support/database";
import { enrolTotp } from "./support/factors";
import { A_REASON, injectApproved } from "./support/four-eyes";
import { takeOnlyMail } from "./support/mime";
import { openApiDocument, operationsOf, type Operation } from "./support/openapi";

const PUBLIC_URL = "https://console.wallet.example";

let testDb: TestDatabase;
let app: App;
let superToken: string;
let superAdmin: AdminDto;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb, { PUBLIC_URL, LOGIN_RATE_LIMIT: "1000" });
  ({ token: superToken, admin: superAdmin } = await login(app, DEMO.superAdmin));
});

afterAll(async () => {
  await app?.close();
  await testDb?.destroy();
});

let n = 0;
const uniqueEmail = (prefix: string) => `${prefix}.${Date.now()}.${(n += 1)}@wallet.example`;

interface Attempt {
  method: Operation["method"];
  url: string;
  payload?: object;
}

/** The requests that act on administrator `id`, one per thing they change, per operation. */
const ATTEMPTS: Record<string, (id: number) => Attempt[]> = {
  // Name and e-mail only: status and permissions move through the two actions below.
  "PATCH /v1/api/administrators/{id}": (id) =>
    [{ name: "Renamed By Someone Else" }, { email: uniqueEmail("taken.over") }].map((payload) => ({
      method: "PATCH",
      url: `/v1/api/administrators/${id}`,
      payload,
    })),
  "POST /v1/user-mgmt/change-admin-permission": (id) => [
    {
      method: "POST",
      url: "/v1/user-mgmt/change-admin-permission",
      payload: { admin_id: id, permission_codes: [PERMISSION.admin] },
    },
  ],
  "PATCH /v1/api/administrators/{id}/status": (id) =>
    [{ status: "disabled" }, { status: "banned" }].map((payload) => ({
      method: "PATCH",
      url: `/v1/api/administrators/${id}/status`,
      payload,
    })),
  "PATCH /v1/api/administrators/{id}/permissions": (id) => [
    {
      method: "PATCH",
      url: `/v1/api/administrators/${id}/permissions`,
      payload: { permissions: [PERMISSION.admin] },
    },
  ],
  "POST /v1/api/administrators/{id}/password-reset": (id) => [
    { method: "POST", url: `/v1/api/administrators/${id}/password-reset` },
  ],
  "POST /v1/api/administrators/{id}/factors/reset": (id) => [
    {
      method: "POST",
      url: `/v1/api/administrators/${id}/factors/reset`,
      payload: { remark: "Taking over their sign-in" },
    },
  ],
  "POST /v1/api/administrators/{id}/sessions/end": (id) => [
    { method: "POST", url: `/v1/api/administrators/${id}/sessions/end` },
  ],
};

const actsOnAnAdministrator = (operation: Operation) =>
  operation.method !== "GET" &&
  ((/\/administrators\/\{id\}/.test(operation.path) &&
    operation.parameters.some((parameter) => parameter.in === "path")) ||
    JSON.stringify(operation.body ?? {}).includes('"admin_id"'));

/** Every non-empty strict subset of `codes`, with Admin (8) added (the routes need it). */
function strictSubsetsWithAdmin(codes: number[]): number[][] {
  const others = codes.filter((code) => code !== PERMISSION.admin);
  const subsets: number[][] = [];
  for (let mask = 0; mask < (1 << others.length) - 1; mask += 1) {
    subsets.push([PERMISSION.admin, ...others.filter((_, bit) => mask & (1 << bit))]);
  }
  return subsets;
}

async function snapshot(id: number) {
  const db = testDb.database.db;
  const [row] = await db.select().from(administrators).where(eq(administrators.id, id));
  const [resets] = await db
    .select({ n: count() })
    .from(administratorPasswordResets)
    .where(eq(administratorPasswordResets.administratorId, id));
  const [audits] = await db
    .select({ n: count() })
    .from(auditLog)
    .where(and(eq(auditLog.targetTable, "administrators"), eq(auditLog.targetId, String(id))));
  return { row, resets: resets?.n, audits: audits?.n };
}

/**
 * A new administrator holding `codes`, with an authenticator app (so that resetting it is a
 * change like any other here).
 */
async function targetWithFactor(codes: number[]) {
  const target = await createAdmin(app, superToken, codes);
  await enrolTotp(app, target.token);
  return target;
}

// A permission change waits for a second approver (the approver approves it): who may act on
// whom is decided when it is asked for, and again when it is applied.
const send = (attempt: Attempt, token: string) =>
  injectApproved(app, { ...attempt, headers: { ...auth(token), ...A_REASON } });

describe("acting on another administrator", () => {
  it("lists every operation that acts on an existing administrator", async () => {
    const documented = operationsOf(await openApiDocument(app))
      .filter(actsOnAnAdministrator)
      .map((operation) => `${operation.method} ${operation.path}`)
      .sort();
    expect(documented).toEqual(Object.keys(ATTEMPTS).sort());
  });

  it("needs every code the target holds: each strict subset is refused and changes nothing", async () => {
    const targetCodes = [PERMISSION.user, PERMISSION.admin, 33, 35];
    const target = await targetWithFactor(targetCodes);
    // One at a time: an address has at most two logins checked at once.
    const actors = [];
    for (const codes of strictSubsetsWithAdmin(targetCodes)) {
      actors.push(await createAdmin(app, superToken, codes));
    }
    expect(actors).toHaveLength(7);
    const before = await snapshot(target.admin.id);
    const attempts = Object.values(ATTEMPTS).flatMap((of) => of(target.admin.id));
    for (const actor of actors) {
      for (const attempt of attempts) {
        const response = await send(attempt, actor.token);
        const what = `${JSON.stringify(actor.admin.permissions)} ${attempt.method} ${attempt.url} ${JSON.stringify(attempt.payload)}`;
        expect(response.statusCode, `${what}: ${response.body}`).toBe(403);
        const missing = targetCodes.filter((code) => !actor.admin.permissions.includes(code));
        expect(response.json(), what).toMatchObject({
          code: "PERMISSION_NOT_HELD",
          data: { codes: missing },
        });
      }
    }
    expect(await snapshot(target.admin.id)).toEqual(before);
    // The target's own session and password are untouched.
    await login(app, { email: target.admin.email, password: target.password });
  });

  it("is allowed to an actor holding every code the target holds (the control)", async () => {
    const targetCodes = [PERMISSION.user, 33];
    const actor = await createAdmin(app, superToken, [PERMISSION.admin, ...targetCodes]);
    for (const [operation, of] of Object.entries(ATTEMPTS)) {
      // A fresh target per request: a ban or a new e-mail would otherwise change the next one.
      const template = of(0);
      for (let index = 0; index < template.length; index += 1) {
        const target = await targetWithFactor(targetCodes);
        const attempt = of(target.admin.id)[index]!;
        const response = await send(attempt, actor.token);
        expect(response.statusCode, `${operation} ${response.body}`).toBeLessThan(300);
      }
    }
  });

  it("a super administrator only by a super administrator, whatever codes the actor holds", async () => {
    const everything = await createAdmin(app, superToken, [...PERMISSION_CODES]);
    // An authenticator app for the reset to take, for this test only (the suite's super
    // administrator signed in with the password, which step-up then would not take).
    const db = testDb.database.db;
    await db
      .insert(adminTotp)
      .values({ adminId: superAdmin.id, secret: "A".repeat(32), confirmedAt: new Date() });
    try {
      const before = await snapshot(superAdmin.id);
      for (const attempt of Object.values(ATTEMPTS).flatMap((of) => of(superAdmin.id))) {
        const response = await send(attempt, everything.token);
        expect(response.statusCode, `${attempt.url} ${response.body}`).toBe(403);
        expect(response.json().code).toBe("SUPER_ADMIN_ONLY");
      }
      expect(await snapshot(superAdmin.id)).toEqual(before);
    } finally {
      await db.delete(adminTotp).where(eq(adminTotp.adminId, superAdmin.id));
    }
  });

  it("nobody sets another's password, not even a super administrator", async () => {
    const target = await createAdmin(app, superToken, [PERMISSION.user]);
    const before = await snapshot(target.admin.id);
    for (const payload of [
      { password: "Taken#Over2026" },
      { name: "X", password: "Taken#Over2026" },
    ]) {
      const response = await send(
        { method: "PATCH", url: `/v1/api/administrators/${target.admin.id}`, payload },
        superToken,
      );
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().code).toBe("VALIDATION_ERROR");
    }
    expect(await snapshot(target.admin.id)).toEqual(before);
    const refused = await app.inject({
      method: "POST",
      url: "/v1/api/auth/login",
      payload: { email: target.admin.email, password: "Taken#Over2026" },
    });
    expect(refused.statusCode).toBe(401);
  });
});

describe("an administrator's password reset link", () => {
  const outbox = () => join(testDb.dataDir, "outbox");

  const takeMail = () => takeOnlyMail(outbox());

  const issue = (id: number, token = superToken, headers: Record<string, string> = {}) =>
    app.inject({
      method: "POST",
      url: `/v1/api/administrators/${id}/password-reset`,
      headers: { ...auth(token), ...headers },
    });
  const publicPost = (url: string, payload: object) => app.inject({ method: "POST", url, payload });

  it("goes to the owner's own e-mail under PUBLIC_URL, never the request's Host, and is audited", async () => {
    await rm(outbox(), { recursive: true, force: true });
    const target = await createAdmin(app, superToken, [PERMISSION.user]);
    const response = await issue(target.admin.id, superToken, { host: "evil.example" });
    expect(response.statusCode, response.body).toBe(202);
    const mail = await takeMail();
    expect(mail.to).toBe(target.admin.email);
    expect(mail.text).not.toContain("evil.example");
    const link = new RegExp(`${PUBLIC_URL}/login/reset-password\\?token=([\\w-]{43})`).exec(
      mail.text,
    );
    expect(link, mail.text).not.toBeNull();
    const token = link![1]!;

    const [entry] = await testDb.database.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.targetId, String(target.admin.id)),
          eq(auditLog.action, "administrator.reset_password"),
        ),
      );
    expect(entry).toMatchObject({ adminId: superAdmin.id, targetTable: "administrators" });
    expect(JSON.stringify(entry)).not.toContain(token);

    // Nothing changed yet: the old password and session still work.
    await login(app, { email: target.admin.email, password: target.password });
    const check = await publicPost("/v1/api/auth/password-reset/check", { token });
    expect(check.statusCode, check.body).toBe(200);
    expect(check.json()).toMatchObject({ email: target.admin.email, name: target.admin.name });
    // The wallet users' page does not spend a console link.
    expect((await publicPost("/v1/api/app/password-reset/check", { token })).statusCode).toBe(404);

    const weak = await publicPost("/v1/api/auth/password-reset", { token, password: "weak" });
    expect(weak.json().code).toBe("WEAK_PASSWORD");
    const done = await publicPost("/v1/api/auth/password-reset", {
      token,
      password: "Fresh#Start2026",
    });
    expect(done.statusCode, done.body).toBe(200);
    // Every earlier session ended; the new password works; the link is spent.
    const me = await app.inject({
      method: "GET",
      url: "/v1/api/account/admin",
      headers: auth(target.token),
    });
    expect(me.statusCode).toBe(401);
    await login(app, { email: target.admin.email, password: "Fresh#Start2026" });
    const again = await publicPost("/v1/api/auth/password-reset", {
      token,
      password: "Again#Start2026",
    });
    expect(again.statusCode).toBe(410);
    expect(again.json().code).toBe("RESET_LINK_USED");
  });

  it("stops working when the administrator's e-mail changes (it went to the old address)", async () => {
    await rm(outbox(), { recursive: true, force: true });
    const target = await createAdmin(app, superToken, [PERMISSION.user]);
    expect((await issue(target.admin.id)).statusCode).toBe(202);
    const token = /token=([\w-]{43})/.exec((await takeMail()).text)![1]!;
    const moved = await app.inject({
      method: "PATCH",
      url: `/v1/api/administrators/${target.admin.id}`,
      headers: auth(superToken),
      payload: { email: uniqueEmail("moved") },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const used = await publicPost("/v1/api/auth/password-reset", {
      token,
      password: "Old#Mailbox2026",
    });
    expect(used.statusCode).toBe(410);
    expect(used.json().code).toBe("RESET_LINK_USED");
  });

  it("retires an earlier unused link when a new one is sent", async () => {
    await rm(outbox(), { recursive: true, force: true });
    const target = await createAdmin(app, superToken, [PERMISSION.user]);
    expect((await issue(target.admin.id)).statusCode).toBe(202);
    const first = /token=([\w-]{43})/.exec((await takeMail()).text)![1]!;
    expect((await issue(target.admin.id)).statusCode).toBe(202);
    await takeMail();
    const check = await publicPost("/v1/api/auth/password-reset/check", { token: first });
    expect(check.statusCode).toBe(410);
    expect(check.json().code).toBe("RESET_LINK_USED");
  });
});
