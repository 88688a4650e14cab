import { and, desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { App } from "../../server/app";
import { verifyPassword } from "../../server/auth/password";
import { administrators, auditLog, changeRequests } from "../../server/db/schema";
import { CHANGE_REASON_HEADER, type PendingApprovalAnswer } from "../../src/shared/kit/four-eyes";
import type { AdminDto } from "../../src/shared/schemas/administrators";
import { updateAdministrator } from "../../server/modules/administrators/rules";
import { auth, createAdmin, createTestApp, DEMO, login, productionApp } from "./support/app";
import { createTestDatabase, type TestDatabase } from "./support/database";
import { A_REASON, approve, checkerToken, injectApproved } from "./support/four-eyes";

let testDb: TestDatabase;
let app: App;
let superToken: string;
let superAdmin: AdminDto;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb);
  ({ token: superToken, admin: superAdmin } = await login(app, DEMO.superAdmin));
});

afterAll(async () => {
  await app?.close();
  await testDb?.destroy();
});

let n = 0;
const uniqueEmail = (prefix = "admin") => `${prefix}.${Date.now()}.${(n += 1)}@wallet.example`;

// Creating an administrator and permission changes wait for a second approver: the approver
// approves them (four eyes' own rules are tests/server/four-eyes.test.ts; a new administrator's
// under four eyes below).
const post = (url: string, payload: unknown, token = superToken) =>
  injectApproved(app, {
    method: "POST",
    url,
    payload: payload as object,
    headers: { ...auth(token), ...A_REASON },
  });
const patch = (id: number, payload: unknown, token = superToken) =>
  app.inject({
    method: "PATCH",
    url: `/v1/api/administrators/${id}`,
    payload: payload as object,
    headers: auth(token),
  });
/** One of the module's declared actions: `status` or `permissions`. */
const act = (id: number, path: "status" | "permissions", payload: unknown, token = superToken) =>
  injectApproved(app, {
    method: "PATCH",
    url: `/v1/api/administrators/${id}/${path}`,
    payload: payload as object,
    headers: { ...auth(token), ...A_REASON },
  });
const get = (id: number | string, token = superToken) =>
  app.inject({ method: "GET", url: `/v1/api/administrators/${id}`, headers: auth(token) });
/**
 * A creation as it is sent, answered as it is, not approved: a refusal of the dry run (a bad
 * body, a code not held, a taken e-mail, a weak password) comes at once, before any request.
 */
const create = (payload: unknown, token = superToken, headers: object = A_REASON) =>
  app.inject({
    method: "POST",
    url: "/v1/api/administrators",
    payload: payload as object,
    headers: { ...auth(token), ...headers },
  });

async function requestCount() {
  const [row] = await testDb.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(changeRequests);
  return row?.n ?? 0;
}

/** The administrators whose e-mail is `email`, in any letter case. */
async function administratorsWithEmail(email: string) {
  return testDb.database.db
    .select({ id: administrators.id })
    .from(administrators)
    .where(sql`lower(${administrators.email}) = lower(${email})`);
}

/** Nothing was made of a refused creation: no account for `email`, no request, no audit entry. */
async function expectNothingMade(
  email: string,
  before: { requests: number; audits: number },
  existing = 0,
) {
  expect(await administratorsWithEmail(email)).toHaveLength(existing);
  expect(await requestCount()).toBe(before.requests);
  expect(await auditCount()).toBe(before.audits);
}

const counts = async () => ({ requests: await requestCount(), audits: await auditCount() });

function expectRefused(
  response: { statusCode: number; body: string },
  status: number,
  code: string,
) {
  expect(response.statusCode, response.body).toBe(status);
  expect(JSON.parse(response.body)).toMatchObject({ code });
}

async function lastAuditFor(id: number) {
  const [entry] = await testDb.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetTable, "administrators"), eq(auditLog.targetId, String(id))))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return entry;
}

async function auditCount() {
  const [row] = await testDb.database.db.select({ n: sql<number>`count(*)::int` }).from(auditLog);
  return row?.n ?? 0;
}

describe("POST /v1/api/administrators", () => {
  it("creates an administrator, hashes the password and audits the creation", async () => {
    const email = uniqueEmail("New.Person");
    const response = await post("/v1/api/administrators", {
      name: "  New Person ",
      email,
      password: "Str0ng#Password",
      permissions: [35, 0, 8, 0],
    });
    expect(response.statusCode).toBe(201);
    const created = response.json<AdminDto>();
    expect(created).toMatchObject({
      name: "New Person",
      email,
      permissions: [0, 8, 35],
      isSuperAdmin: false,
      status: "active",
      language: null,
      lastLoginAt: null,
    });
    expect(Date.parse(created.createdAt)).not.toBeNaN();

    const [row] = await testDb.database.db
      .select()
      .from(administrators)
      .where(eq(administrators.id, created.id));
    expect(row?.passwordHash).not.toContain("Str0ng#Password");
    expect(await verifyPassword("Str0ng#Password", row!.passwordHash)).toBe(true);

    // The maker's creation, approved by the second super administrator.
    const approver = await login(app, DEMO.approver);
    const entry = await lastAuditFor(created.id);
    expect(entry).toMatchObject({
      adminId: superAdmin.id,
      approvedBy: approver.admin.id,
      action: "administrator.create",
      before: null,
      after: expect.objectContaining({ email, permissions: [0, 8, 35], status: "active" }),
    });
    expect(JSON.stringify(entry)).not.toMatch(/scrypt|Str0ng/);

    // The new administrator can log in.
    await login(app, { email, password: "Str0ng#Password" });
  });

  it("409 EMAIL_TAKEN for an e-mail already used, in any letter case", async () => {
    const before = await counts();
    const response = await create({
      name: "Copy",
      email: "FINANCE@Wallet.Example",
      password: "Str0ng#Password",
      permissions: [],
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: "EMAIL_TAKEN" });
    // Finance's own account only.
    await expectNothingMade(DEMO.finance.email, before, 1);
  });

  it("400 WEAK_PASSWORD listing the broken rules", async () => {
    const before = await counts();
    const email = uniqueEmail();
    const response = await create({ name: "Weak", email, password: "short", permissions: [] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: "WEAK_PASSWORD",
      data: { rules: ["length", "uppercase", "digit"] },
    });
    await expectNothingMade(email, before);
  });

  it("400 VALIDATION_ERROR naming the field for bad input", async () => {
    const cases: Array<[unknown, string]> = [
      [{ name: "X", email: "not-an-email", password: "Str0ng#Pass", permissions: [] }, "email"],
      [{ name: "", email: uniqueEmail(), password: "Str0ng#Pass", permissions: [] }, "name"],
      [
        { name: "X", email: uniqueEmail(), password: "Str0ng#Pass", permissions: [7] },
        "permissions.0",
      ],
      [
        { name: "X", email: uniqueEmail(), password: "Str0ng#Pass", permissions: "8" },
        "permissions",
      ],
      [{ name: "X", email: uniqueEmail(), password: "Str0ng#Pass" }, "permissions"],
      [
        {
          name: "X",
          email: uniqueEmail(),
          password: "Str0ng#Pass",
          permissions: [],
          isSuperAdmin: true,
        },
        "isSuperAdmin",
      ],
    ];
    const before = await counts();
    for (const [payload, field] of cases) {
      const response = await create(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      const body = response.json();
      expect(body.code).toBe("VALIDATION_ERROR");
      expect(body.message).toContain(field);
      expect(body.data.issues.map((issue: { path: string }) => issue.path)).toContain(field);
      const { email } = payload as { email: string };
      expect(await administratorsWithEmail(email)).toHaveLength(0);
    }
    expect(await counts()).toEqual(before);
  });
});

describe("creating an administrator under four eyes", () => {
  const password = "Fresh#Admin2026";
  const loginAs = (email: string) =>
    app.inject({ method: "POST", url: "/v1/api/auth/login", payload: { email, password } });

  it("waits for another administrator's approval, keeping only the password's hash", async () => {
    const email = uniqueEmail("pending");
    const made = await create({ name: "Pending Person", email, password, permissions: [12, 0] });
    expect(made.statusCode, made.body).toBe(202);
    const { status, changeRequest } = made.json<PendingApprovalAnswer>();
    expect(status).toBe("pending_approval");
    expect(changeRequest.reference).toMatch(/^CR/);

    // No account until it is approved: the typed credentials do not sign in.
    expect(await administratorsWithEmail(email)).toHaveLength(0);
    expect((await loginAs(email)).statusCode).toBe(401);

    // The request keeps the password as its hash only, nowhere else.
    const stored = async () => {
      const [row] = await testDb.database.db
        .select()
        .from(changeRequests)
        .where(eq(changeRequests.id, changeRequest.id));
      return row!;
    };
    const request = await stored();
    expect(request).toMatchObject({
      module: "administrators",
      action: "create",
      status: "pending",
      makerId: superAdmin.id,
      recordId: null,
      reason: "Test fixture",
    });
    const body = request.body as Record<string, unknown>;
    expect(body).toMatchObject({ name: "Pending Person", email, permissions: [12, 0] });
    expect(body).not.toHaveProperty("password");
    expect(typeof body.passwordHash).toBe("string");
    expect(body.passwordHash).not.toBe(password);
    expect(await verifyPassword(password, body.passwordHash as string)).toBe(true);
    expect(JSON.stringify(request)).not.toContain(password);
    // The checker's preview shows no secret either.
    expect(JSON.stringify({ before: request.before, after: request.after })).not.toMatch(
      /scrypt|passwordHash/,
    );

    // Its maker cannot approve it, by this session or another.
    expectRefused(await approve(app, superToken, changeRequest.id), 403, "SELF_APPROVAL");
    const second = await login(app, DEMO.superAdmin);
    expectRefused(await approve(app, second.token, changeRequest.id), 403, "SELF_APPROVAL");
    expect(await administratorsWithEmail(email)).toHaveLength(0);
    expect((await stored()).status).toBe("pending");

    // The second super administrator approves it: the account exists, as asked.
    const approver = await login(app, DEMO.approver);
    const approved = await approve(app, await checkerToken(app), changeRequest.id);
    expect(approved.statusCode, approved.body).toBe(200);
    const { resultId } = approved.json<{ resultId: number }>();
    expect(await administratorsWithEmail(email)).toEqual([{ id: resultId }]);
    expect((await get(resultId)).json()).toMatchObject({
      name: "Pending Person",
      email,
      permissions: [0, 12],
      isSuperAdmin: false,
      status: "active",
    });
    expect(await stored()).toMatchObject({
      status: "approved",
      checkerId: approver.admin.id,
      resultId,
    });
    expect(await lastAuditFor(resultId)).toMatchObject({
      action: "administrator.create",
      adminId: superAdmin.id,
      approvedBy: approver.admin.id,
    });
    // The password typed by the maker signs the new administrator in.
    const session = await login(app, { email, password });
    expect(session.admin).toMatchObject({ id: resultId, permissions: [0, 12] });
  });

  it("400 REASON_REQUIRED without a reason for the approver, storing nothing", async () => {
    for (const headers of [{}, { [CHANGE_REASON_HEADER]: "%20%20" }]) {
      const before = await counts();
      const email = uniqueEmail("reasonless");
      const response = await create(
        { name: "No Reason", email, password, permissions: [0] },
        superToken,
        headers,
      );
      expectRefused(response, 400, "REASON_REQUIRED");
      await expectNothingMade(email, before);
    }
  });

  // A fresh production install: its first administrator (ADMIN_EMAIL's) adds the second with
  // nobody else to check it; once someone could, a creation waits again.
  it("creates at once (201) while no other active administrator could check it", async () => {
    const { app: fresh, db, token, close } = await productionApp();
    try {
      const send = (email: string, permissions: number[]) =>
        fresh.inject({
          method: "POST",
          url: "/v1/api/administrators",
          headers: { ...auth(token), ...A_REASON },
          payload: { name: "Second Admin", email, password, permissions },
        });

      // (The test database's demo data holds requests of its own.)
      const requests = (await db.select().from(changeRequests)).length;
      // Nobody else could check it: made at once, no request.
      const first = await send("second@campus.example", [0, 8]);
      expect(first.statusCode, first.body).toBe(201);
      expect(first.json<AdminDto>()).toMatchObject({
        email: "second@campus.example",
        permissions: [0, 8],
      });
      expect(await db.select().from(changeRequests)).toHaveLength(requests);
      await login(fresh, { email: "second@campus.example", password });

      // Now an active holder of Admin (8) could: the next one waits for them.
      const next = await send("third@campus.example", [0]);
      expect(next.statusCode, next.body).toBe(202);
      expect(await db.select().from(changeRequests)).toHaveLength(requests + 1);
      expect(
        await db
          .select()
          .from(administrators)
          .where(eq(administrators.email, "third@campus.example")),
      ).toHaveLength(0);
    } finally {
      await close();
    }
  });
});

describe("GET /v1/api/administrators/:id", () => {
  it("returns the administrator without secrets", async () => {
    const response = await get(superAdmin.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: superAdmin.id, email: DEMO.superAdmin.email });
    expect(response.body).not.toContain("scrypt");
  });

  it("404 NOT_FOUND for an unknown id, 400 for a malformed one", async () => {
    const missing = await get(999_999);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: "NOT_FOUND" });
    const malformed = await get("abc");
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: "VALIDATION_ERROR" });
  });
});

describe("PATCH /v1/api/administrators/:id", () => {
  it("changes fields and writes before and after to the audit trail", async () => {
    const { admin } = await createAdmin(app, superToken, [0]);
    const response = await patch(admin.id, { name: "Renamed" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ name: "Renamed", permissions: [0], status: "active" });
    const entry = await lastAuditFor(admin.id);
    expect(entry).toMatchObject({
      adminId: superAdmin.id,
      action: "administrator.update",
      before: expect.objectContaining({ name: admin.name, permissions: [0], status: "active" }),
      after: expect.objectContaining({ name: "Renamed", permissions: [0], status: "active" }),
    });
  });

  // Power moves only through the declared actions (…/status, …/permissions): the edit form is
  // not a second path around them.
  it("400 for status or permissions, naming the field, without changing anything", async () => {
    const { admin } = await createAdmin(app, superToken, [0]);
    const before = await auditCount();
    for (const [payload, field] of [
      [{ status: "disabled" }, "status"],
      [{ status: "banned" }, "status"],
      [{ status: "active", name: "Sneaky" }, "status"],
      [{ permissions: [0, 4] }, "permissions"],
      [{ name: "Sneaky", permissions: [] }, "permissions"],
    ] as const) {
      const response = await patch(admin.id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({
        code: "VALIDATION_ERROR",
        message: `Invalid ${field}: Unknown field`,
        data: { issues: [{ path: field, message: "Unknown field" }] },
      });
    }
    expect((await get(admin.id)).json()).toMatchObject({
      name: admin.name,
      permissions: [0],
      status: "active",
    });
    expect(await auditCount()).toBe(before);
  });

  it("changes the e-mail (uniqueness-checked) but never the password", async () => {
    const { admin, password } = await createAdmin(app, superToken, [0]);
    const taken = await patch(admin.id, { email: DEMO.userDesk.email.toUpperCase() });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe("EMAIL_TAKEN");
    // Issue 30: a password is set only by its owner, through a link e-mailed to them.
    const withPassword = await patch(admin.id, { password: "New#Passw0rd" });
    expect(withPassword.statusCode).toBe(400);
    expect(withPassword.json().code).toBe("VALIDATION_ERROR");

    const email = uniqueEmail("moved");
    const response = await patch(admin.id, { email });
    expect(response.statusCode).toBe(200);
    const entry = await lastAuditFor(admin.id);
    expect(entry).toMatchObject({ action: "administrator.update" });
    await login(app, { email, password });
  });

  it("keeps its own e-mail when only the letter case changes", async () => {
    const { admin } = await createAdmin(app, superToken, [0]);
    const response = await patch(admin.id, { email: admin.email.toUpperCase() });
    expect(response.statusCode).toBe(200);
    expect(response.json().email).toBe(admin.email.toUpperCase());
  });

  it("rejects unknown fields without changing anything", async () => {
    const { admin } = await createAdmin(app, superToken, [0]);
    const before = await auditCount();
    for (const payload of [{ isSuperAdmin: true }, { name: "X", password: "Str0ng#Pass" }]) {
      const response = await patch(admin.id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().code).toBe("VALIDATION_ERROR");
    }
    expect((await get(admin.id)).json()).toMatchObject({ permissions: [0], status: "active" });
    expect(await auditCount()).toBe(before);
  });

  it("404 for an unknown administrator", async () => {
    const response = await patch(999_999, { name: "Nobody" });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe("NOT_FOUND");
  });

  it("409 SELF_STATUS_CHANGE when an administrator disables or bans themselves", async () => {
    const { admin, token } = await createAdmin(app, superToken, [8]);
    const before = await auditCount();
    for (const status of ["disabled", "banned"]) {
      const response = await act(admin.id, "status", { status }, token);
      expect(response.statusCode).toBe(409);
      expect(response.json().code).toBe("SELF_STATUS_CHANGE");
    }
    // Enabling oneself while active is refused by the action's guard before the rule is asked.
    const active = await act(admin.id, "status", { status: "active" }, token);
    expect(active.statusCode).toBe(409);
    expect(active.json().code).toBe("ALREADY_IN_STATE");
    expect(await auditCount()).toBe(before);
    expect((await get(admin.id)).json()).toMatchObject({ status: "active" });
  });

  it("409 SUPER_ADMIN_IMMUTABLE for a super administrator's permissions or status", async () => {
    for (const [path, payload] of [
      ["permissions", { permissions: [0] }],
      ["status", { status: "disabled" }],
      ["status", { status: "banned" }],
    ] as const) {
      const response = await act(superAdmin.id, path, payload, superToken);
      expect(response.statusCode, JSON.stringify(payload)).toBe(409);
      expect(response.json().code).toBe("SUPER_ADMIN_IMMUTABLE");
    }
  });

  // Issue 16: an administrator holding only Admin (8) renamed the super administrator and reset
  // its password (this test asserted a 409 for the takeover; the rule now answers 403).
  it("403 SUPER_ADMIN_ONLY when anyone but a super administrator changes one", async () => {
    const { token } = await createAdmin(app, superToken, [8]);
    for (const request of [
      () => act(superAdmin.id, "permissions", { permissions: [0] }, token),
      () => act(superAdmin.id, "status", { status: "disabled" }, token),
      () => act(superAdmin.id, "status", { status: "banned" }, token),
      () => patch(superAdmin.id, { name: "Renamed" }, token),
      () => patch(superAdmin.id, { email: uniqueEmail("takeover") }, token),
    ]) {
      const response = await request();
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json()).toMatchObject({
        code: "SUPER_ADMIN_ONLY",
        message: "Only a super administrator can change a super administrator",
      });
    }
    expect((await get(superAdmin.id)).json()).toMatchObject({ name: superAdmin.name });
    expect(await login(app, DEMO.superAdmin)).toMatchObject({ admin: { id: superAdmin.id } });
    // Re-sending the same permissions is not a change.
    const same = await act(
      superAdmin.id,
      "permissions",
      { permissions: superAdmin.permissions },
      token,
    );
    expect(same.statusCode).toBe(200);
  });

  it("403 PERMISSION_NOT_HELD when granting or removing a code the caller does not hold", async () => {
    const { admin: me, token } = await createAdmin(app, superToken, [8, 0]);
    // Granting itself every module.
    const escalate = await act(me.id, "permissions", { permissions: [0, 4, 8, 12, 33] }, token);
    expect(escalate.statusCode).toBe(403);
    expect(escalate.json()).toMatchObject({
      code: "PERMISSION_NOT_HELD",
      data: { codes: [4, 12, 33] },
    });
    const through = await post(
      "/v1/user-mgmt/change-admin-permission",
      { admin_id: me.id, permission_codes: [0, 8, 35] },
      token,
    );
    expect(through.statusCode).toBe(403);
    // Creating an administrator with a code it lacks (refused at once, nothing stored), or
    // removing one from another.
    const before = await counts();
    const financeTwo = uniqueEmail();
    const created = await create(
      { name: "Finance Two", email: financeTwo, password: "Correct#Horse1", permissions: [33] },
      token,
    );
    expect(created.statusCode).toBe(403);
    expect(created.json()).toMatchObject({ code: "PERMISSION_NOT_HELD", data: { codes: [33] } });
    await expectNothingMade(financeTwo, before);
    const { admin: finance } = await createAdmin(app, superToken, [0, 33]);
    expect((await act(finance.id, "permissions", { permissions: [0] }, token)).statusCode).toBe(
      403,
    );
    expect((await get(me.id)).json()).toMatchObject({ permissions: [0, 8] });
    expect((await get(finance.id)).json()).toMatchObject({ permissions: [0, 33] });
    // Codes it holds move freely on an administrator whose every code it holds.
    const { admin: desk } = await createAdmin(app, superToken, [0]);
    const allowed = await act(desk.id, "permissions", { permissions: [8] }, token);
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect(allowed.json()).toMatchObject({ permissions: [8] });
  });

  it("rolls the change back when its audit entry cannot be written", async () => {
    const { admin } = await createAdmin(app, superToken, [0]);
    const db = testDb.database.db;
    await db.execute(sql`
      create function refuse_explosive_audit() returns trigger language plpgsql as $$
      begin
        if new.after ->> 'name' = 'Explosive' then raise exception 'audit refused'; end if;
        return new;
      end $$`);
    await db.execute(sql`
      create trigger refuse_explosive_audit before insert on audit_log
      for each row execute function refuse_explosive_audit()`);
    try {
      const response = await patch(admin.id, { name: "Explosive" });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ code: "INTERNAL_ERROR", message: "Internal server error" });
      expect((await get(admin.id)).json()).toMatchObject({ name: admin.name });
    } finally {
      await db.execute(sql`drop trigger refuse_explosive_audit on audit_log`);
      await db.execute(sql`drop function refuse_explosive_audit()`);
    }
  });
});

describe("the last holder of Admin (8)", () => {
  /** Disables every active holder of 8 (super administrators included) except `keep`. */
  async function leaveOnly(keep: number[]) {
    return testDb.database.db
      .update(administrators)
      .set({ status: "disabled" })
      .where(
        and(
          eq(administrators.status, "active"),
          sql`${administrators.id} not in (${sql.join(keep, sql`, `)})`,
          sql`(${administrators.isSuperAdmin} or 8 = any(${administrators.permissions}))`,
        ),
      )
      .returning({ id: administrators.id });
  }

  async function restore(parked: Array<{ id: number }>) {
    for (const { id } of parked) {
      await testDb.database.db
        .update(administrators)
        .set({ status: "active" })
        .where(eq(administrators.id, id));
    }
  }

  it("409 LAST_ADMIN_HOLDER when the last active holder would lose 8", async () => {
    const { admin: last, token: lastToken } = await createAdmin(app, superToken, [0, 8]);
    // The helper holds 0 as well: nobody grants or removes a code it does not hold.
    const { admin: helper, token: helperToken } = await createAdmin(app, superToken, [0, 8]);
    const parked = await leaveOnly([last.id, helper.id]);
    try {
      // With two holders, one may step down (the other, the only checker left, approves it).
      const stepDown = await injectApproved(
        app,
        {
          method: "POST",
          url: "/v1/user-mgmt/change-admin-permission",
          payload: { admin_id: helper.id, permission_codes: [0] },
          headers: { ...auth(helperToken), ...A_REASON },
        },
        lastToken,
      );
      expect(stepDown.statusCode).toBe(200);

      const before = await auditCount();
      const attempts = [
        () => act(last.id, "permissions", { permissions: [0] }, lastToken),
        () =>
          post(
            "/v1/user-mgmt/change-admin-permission",
            { admin_id: last.id, permission_codes: [] },
            lastToken,
          ),
      ];
      for (const attempt of attempts) {
        const response = await attempt();
        expect(response.statusCode).toBe(409);
        expect(response.json().code).toBe("LAST_ADMIN_HOLDER");
      }
      expect(await auditCount()).toBe(before);
      expect((await get(last.id, lastToken)).json()).toMatchObject({ permissions: [0, 8] });
    } finally {
      await restore(parked);
    }
  });

  it("409 LAST_ADMIN_HOLDER when the last holder would be disabled or banned", async () => {
    const { admin: last } = await createAdmin(app, superToken, [8]);
    const parked = await leaveOnly([last.id]);
    try {
      // Through the API only the holder themselves could try, and SELF_STATUS_CHANGE stops them
      // first; the rule itself holds for any caller, e.g. a holder of 8 whose session is older
      // than its parking.
      const [desk] = await testDb.database.db
        .select()
        .from(administrators)
        .where(eq(administrators.email, DEMO.userDesk.email));
      const actor = { ...desk!, permissions: [0, 8] };
      for (const status of ["disabled", "banned"] as const) {
        await expect(
          updateAdministrator(testDb.database.db, actor, last.id, { status }),
        ).rejects.toMatchObject({ statusCode: 409, code: "LAST_ADMIN_HOLDER" });
      }
      // Super administrators count as holders: with one active, the change is allowed.
      await restore(parked.filter(({ id }) => id === superAdmin.id));
      const allowed = await updateAdministrator(testDb.database.db, actor, last.id, {
        status: "disabled",
      });
      expect(allowed.status).toBe("disabled");
    } finally {
      await restore(parked);
    }
  });
});

describe("POST /v1/user-mgmt/check-email-available", () => {
  it("answers case-insensitively and can exclude the administrator being edited", async () => {
    const check = async (payload: object) =>
      (await post("/v1/user-mgmt/check-email-available", payload)).json();
    expect(await check({ email: "USERDESK@wallet.example" })).toEqual({ available: false });
    expect(await check({ email: uniqueEmail("free") })).toEqual({ available: true });
    const [userDesk] = await testDb.database.db
      .select()
      .from(administrators)
      .where(eq(administrators.email, DEMO.userDesk.email));
    expect(await check({ email: DEMO.userDesk.email, exclude_id: userDesk!.id })).toEqual({
      available: true,
    });
  });

  it("400 for a malformed e-mail or an unknown field", async () => {
    for (const payload of [{ email: "nope" }, { email: uniqueEmail(), excludeId: 1 }]) {
      const response = await post("/v1/user-mgmt/check-email-available", payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe("VALIDATION_ERROR");
    }
  });
});

describe("POST /v1/user-mgmt/change-admin-permission", () => {
  it("replaces the permission codes and audits it as a permission change", async () => {
    const { admin } = await createAdmin(app, superToken, [0]);
    const response = await post("/v1/user-mgmt/change-admin-permission", {
      admin_id: admin.id,
      permission_codes: [39, 12, 12],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: admin.id, permissions: [12, 39] });
    expect(await lastAuditFor(admin.id)).toMatchObject({
      action: "administrator.change_permissions",
      before: expect.objectContaining({ permissions: [0] }),
      after: expect.objectContaining({ permissions: [12, 39] }),
    });
  });

  it("400 for unknown codes, 404 for an unknown administrator", async () => {
    const bad = await post("/v1/user-mgmt/change-admin-permission", {
      admin_id: superAdmin.id,
      permission_codes: [99],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain("permission_codes.0");
    const missing = await post("/v1/user-mgmt/change-admin-permission", {
      admin_id: 999_999,
      permission_codes: [0],
    });
    expect(missing.statusCode).toBe(404);
  });
});

// Power moves through the declaration's two actions (the console's status button and permission
// editor call them); the seed's permission call above is an alias of the second.
describe("PATCH /v1/api/administrators/:id/status and /permissions", () => {
  it("disables, ending the administrator's sessions, then enables; each audited once", async () => {
    const { admin, token } = await createAdmin(app, superToken, [0]);
    const disabled = await act(admin.id, "status", { status: "disabled" });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json()).toMatchObject({ id: admin.id, status: "disabled" });
    expect(await lastAuditFor(admin.id)).toMatchObject({
      action: "administrator.disable",
      adminId: superAdmin.id,
      before: expect.objectContaining({ status: "active" }),
      after: expect.objectContaining({ status: "disabled" }),
    });
    // A disabled administrator's session is refused (403, the status checked before the token's
    // version, so the console says why).
    const me = await app.inject({ url: "/v1/api/account/admin", headers: auth(token) });
    expect(me.statusCode).toBe(403);

    const twice = await act(admin.id, "status", { status: "disabled" });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({
      code: "ALREADY_IN_STATE",
      message: "This administrator is not active",
    });
    const enabled = await act(admin.id, "status", { status: "active" });
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(await lastAuditFor(admin.id)).toMatchObject({ action: "administrator.enable" });
  });

  it("keeps the module's rules: not one's own status, not a super administrator's", async () => {
    const self = await act(superAdmin.id, "status", { status: "disabled" });
    expect(self.statusCode).toBe(409);
    expect(["SELF_STATUS_CHANGE", "SUPER_ADMIN_IMMUTABLE"]).toContain(self.json().code);
    const { admin: holder, token } = await createAdmin(app, superToken, [8]);
    const own = await act(holder.id, "status", { status: "disabled" }, token);
    expect(own.statusCode).toBe(409);
    expect(own.json().code).toBe("SELF_STATUS_CHANGE");
    const unknown = await act(holder.id, "status", { status: "gone" });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe("VALIDATION_ERROR");
  });

  it("bans an active or a disabled administrator, ending their sessions; enable lifts it", async () => {
    for (const from of ["active", "disabled"] as const) {
      const { admin, token, password } = await createAdmin(app, superToken, [0]);
      if (from === "disabled") {
        expect((await act(admin.id, "status", { status: "disabled" })).statusCode).toBe(200);
      }
      const banned = await act(admin.id, "status", { status: "banned" });
      expect(banned.statusCode, banned.body).toBe(200);
      expect(banned.json()).toMatchObject({ id: admin.id, status: "banned" });
      expect(await lastAuditFor(admin.id)).toMatchObject({
        action: "administrator.ban",
        adminId: superAdmin.id,
        before: expect.objectContaining({ status: from }),
        after: expect.objectContaining({ status: "banned" }),
      });
      // Their session is refused, and so is signing in again with the right password.
      const me = await app.inject({ url: "/v1/api/account/admin", headers: auth(token) });
      expect(me.statusCode).toBe(403);
      const signIn = await app.inject({
        method: "POST",
        url: "/v1/api/auth/login",
        payload: { email: admin.email, password },
      });
      expect(signIn.statusCode).toBe(403);
      expect(signIn.json().message).toBe("User is banned from login.");

      const before = await auditCount();
      const twice = await act(admin.id, "status", { status: "banned" });
      expect(twice.statusCode).toBe(409);
      expect(twice.json()).toMatchObject({
        code: "ALREADY_IN_STATE",
        message: "This administrator is already banned",
      });
      // A banned administrator is enabled, not merely disabled.
      const disable = await act(admin.id, "status", { status: "disabled" });
      expect(disable.statusCode).toBe(409);
      expect(await auditCount()).toBe(before);
      const enabled = await act(admin.id, "status", { status: "active" });
      expect(enabled.statusCode, enabled.body).toBe(200);
      expect(await lastAuditFor(admin.id)).toMatchObject({ action: "administrator.enable" });
      await login(app, { email: admin.email, password });
    }
  });

  it("replaces the permission codes, quietly when they are the same", async () => {
    const { admin } = await createAdmin(app, superToken, [0]);
    const changed = await act(admin.id, "permissions", { permissions: [12, 0] });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ permissions: [0, 12] });
    const entry = await lastAuditFor(admin.id);
    expect(entry).toMatchObject({ action: "administrator.change_permissions" });
    const before = await auditCount();
    expect((await act(admin.id, "permissions", { permissions: [0, 12] })).statusCode).toBe(200);
    expect(await auditCount()).toBe(before);
    const unknown = await act(admin.id, "permissions", { permissions: [99] });
    expect(unknown.statusCode).toBe(400);
  });
});
