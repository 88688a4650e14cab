import { rm } from "node:fs/promises";
import { join } from "node:path";

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { userPasswordResets } from "../../server/db/schema";
import type { MgmtUser } from "../../src/shared/schemas/user-mgmt";
import { hashResetToken } from "../../server/services/password-reset";
import { createTestApp } from "./support/app";
import { takeOnlyMail } from "./support/mime";
import { unusedPort } from "./support/ports";
import {
  auditEntries,
  call,
  expectError,
  expectNoPermission,
  findUser,
  insertUser,
  useUserDeskSuite,
} from "./support/user-fixtures";

const suite = useUserDeskSuite({ PUBLIC_URL: "https://wallet.example/" });

type Page = { total_count: number; page: number; page_size: number; users: MgmtUser[] };

describe("GET /user-mgmt/get-user-list and /user-mgmt/pending-verify-user", () => {
  it("lists the users of a role in snake_case, newest first, 100 at most per page", async () => {
    const response = await call(
      suite.app,
      suite.desk,
      "GET",
      "/user-mgmt/get-user-list?role=student",
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<Page>();
    expect(body.page_size).toBe(100);
    expect(body.users.length).toBe(Math.min(body.total_count, 100));
    expect(body.users.every((u) => u.role === "student")).toBe(true);
    expect(Object.keys(body.users[0]!).sort()).toEqual(
      [
        "account_number",
        "approval_status",
        "created_at",
        "email",
        "id",
        "is_banned",
        "is_vip",
        "name",
        "phone",
        "role",
      ].sort(),
    );
    const second = await call(
      suite.app,
      suite.desk,
      "GET",
      "/user-mgmt/get-user-list?role=student&page=2&page_size=5",
    );
    const ids = body.users.slice(5, 10).map((u) => u.id);
    expect(second.json<Page>().users.map((u) => u.id)).toEqual(ids);
  });

  it("lists only the pending users of a role", async () => {
    const pending = await insertUser(suite.db, { role: "merchant" });
    await insertUser(suite.db, { role: "merchant", approvalStatus: "approved" });
    const response = await call(
      suite.app,
      suite.desk,
      "GET",
      "/user-mgmt/pending-verify-user?role=merchant",
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<Page>();
    expect(body.users[0]?.id).toBe(pending.id);
    expect(body.users.every((u) => u.role === "merchant" && u.approval_status === "pending")).toBe(
      true,
    );
  });

  it("refuses a missing or unknown role and callers without permission", async () => {
    const missing = expectError(
      await call(suite.app, suite.desk, "GET", "/user-mgmt/get-user-list"),
      400,
      "VALIDATION_ERROR",
    );
    expect(missing.message).toMatch(/^Invalid role/);
    expectError(
      await call(suite.app, suite.desk, "GET", "/user-mgmt/pending-verify-user?role=king"),
      400,
      "VALIDATION_ERROR",
    );
    expectError(
      await call(suite.app, suite.desk, "GET", "/user-mgmt/get-user-list?role=staff&page_size=101"),
      400,
      "VALIDATION_ERROR",
    );
    expectNoPermission(
      await call(suite.app, suite.finance, "GET", "/user-mgmt/get-user-list?role=staff"),
      "GET",
      "User List",
    );
    expectNoPermission(
      await call(suite.app, suite.finance, "GET", "/user-mgmt/pending-verify-user?role=staff"),
      "GET",
      "Pending Verify User",
    );
  });
});

describe("POST /user-mgmt/ban-user", () => {
  const banUser = (payload: unknown, token = suite.desk) =>
    call(suite.app, token, "POST", "/user-mgmt/ban-user", payload);

  it("bans by account number with a remark, auditing it", async () => {
    const user = await insertUser(suite.db);
    const response = await banUser({
      account_number: user.accountNumber,
      ban: true,
      remark: "Fraud",
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<MgmtUser>()).toMatchObject({
      account_number: user.accountNumber,
      is_banned: true,
    });
    expect(await findUser(suite.db, user.id)).toMatchObject({ isBanned: true, banRemark: "Fraud" });
    expect((await auditEntries(suite.db, "users", user.id))[0]).toMatchObject({
      adminId: suite.deskAdminId,
      action: "user.ban",
      remark: "Fraud",
      before: { isBanned: false },
      after: { isBanned: true },
    });
  });

  it("refuses a missing remark, an unknown account (404) and a ban already in place (409)", async () => {
    const user = await insertUser(suite.db, { isBanned: true, banRemark: "Old" });
    const body = expectError(
      await banUser({ account_number: user.accountNumber, ban: true }),
      400,
      "VALIDATION_ERROR",
    );
    expect(body.message).toBe("Invalid remark: Remark is required when banning");
    expectError(await banUser({ account_number: "NOPE-000", ban: false }), 404, "NOT_FOUND");
    expectError(
      await banUser({ account_number: user.accountNumber, ban: true, remark: "x" }),
      409,
      "ALREADY_IN_STATE",
    );
    expectNoPermission(
      await banUser({ account_number: user.accountNumber, ban: false }, suite.finance),
      "POST",
      "Ban User",
    );
    expect(await findUser(suite.db, user.id)).toMatchObject({ isBanned: true, banRemark: "Old" });
  });
});

describe("POST /user-mgmt/set-vip-status", () => {
  const setVip = (payload: unknown, token = suite.desk) =>
    call(suite.app, token, "POST", "/user-mgmt/set-vip-status", payload);

  it("sets and clears VIP status, auditing each", async () => {
    const user = await insertUser(suite.db);
    const on = await setVip({ account_number: user.accountNumber, is_vip: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json<MgmtUser>().is_vip).toBe(true);
    expect(
      (await setVip({ account_number: user.accountNumber, is_vip: false })).json<MgmtUser>().is_vip,
    ).toBe(false);
    const entries = await auditEntries(suite.db, "users", user.id);
    expect(entries.map((e) => e.action)).toEqual(["user.vip_off", "user.vip_on"]);
    expect(entries[1]).toMatchObject({ before: { isVip: false }, after: { isVip: true } });
  });

  it("refuses bad input, unknown accounts, the same status again and callers without permission", async () => {
    const user = await insertUser(suite.db);
    expectError(
      await setVip({ account_number: user.accountNumber, is_vip: "yes" }),
      400,
      "VALIDATION_ERROR",
    );
    expectError(await setVip({ account_number: user.accountNumber }), 400, "VALIDATION_ERROR");
    expectError(await setVip({ account_number: "NOPE-000", is_vip: true }), 404, "NOT_FOUND");
    expectError(
      await setVip({ account_number: user.accountNumber, is_vip: false }),
      409,
      "ALREADY_IN_STATE",
    );
    expectNoPermission(
      await setVip({ account_number: user.accountNumber, is_vip: true }, suite.finance),
      "POST",
      "Set VIP Status",
    );
    expect(await auditEntries(suite.db, "users", user.id)).toEqual([]);
  });
});

describe("POST /user-mgmt/reset-user-password", () => {
  const outbox = () => join(suite.testDb.dataDir, "outbox");
  const reset = (payload: unknown, token = suite.desk, targetApp = suite.app) =>
    call(targetApp, token, "POST", "/user-mgmt/reset-user-password", payload);

  const takeMail = () => takeOnlyMail(outbox());

  it("e-mails a one-time link under PUBLIC_URL, storing only the token's hash, valid one hour", async () => {
    await rm(outbox(), { recursive: true, force: true });
    const user = await insertUser(suite.db, { name: "Reset <Me>" });
    const before = Date.now();
    const response = await reset({ account_number: user.accountNumber });
    expect(response.statusCode, response.body).toBe(202);
    const expiresAt = Date.parse(response.json<{ expires_at: string }>().expires_at);
    expect(expiresAt - before).toBeGreaterThanOrEqual(3_600_000 - 1000);
    expect(expiresAt - before).toBeLessThanOrEqual(3_600_000 + 5000);

    const mail = await takeMail();
    expect(mail.to).toBe(user.email);
    const link = /https:\/\/wallet\.example\/reset-password\?token=([\w-]+)/.exec(mail.text);
    expect(link, mail.text).not.toBeNull();
    expect(mail.html).toContain(link![0]);
    expect(mail.html).toContain("Reset &lt;Me&gt;");
    const token = link![1]!;

    const stored = await suite.db
      .select()
      .from(userPasswordResets)
      .where(eq(userPasswordResets.userId, user.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      tokenHash: hashResetToken(token),
      usedAt: null,
      requestedBy: suite.deskAdminId,
    });
    expect(JSON.stringify(stored)).not.toContain(token);
    const [entry] = await auditEntries(suite.db, "users", user.id);
    expect(entry).toMatchObject({ action: "user.reset_password", adminId: suite.deskAdminId });
    expect(JSON.stringify(entry)).not.toContain(token);

    // A second reset retires the first link.
    expect((await reset({ account_number: user.accountNumber })).statusCode).toBe(202);
    await takeMail();
    const rows = await suite.db
      .select()
      .from(userPasswordResets)
      .where(eq(userPasswordResets.userId, user.id));
    expect(rows.filter((row) => row.usedAt === null)).toHaveLength(1);
  });

  it("never takes the link's address from the request's Host (this server's own without PUBLIC_URL)", async () => {
    await rm(outbox(), { recursive: true, force: true });
    const plainApp = await createTestApp(suite.testDb);
    try {
      const user = await insertUser(suite.db);
      const response = await plainApp.inject({
        method: "POST",
        url: "/v1/user-mgmt/reset-user-password",
        headers: { authorization: suite.desk, host: "evil.example:8443" },
        payload: { account_number: user.accountNumber },
      });
      expect(response.statusCode, response.body).toBe(202);
      const mail = await takeMail();
      expect(mail.text).toContain("http://localhost:8080/reset-password?token=");
      expect(mail.text + mail.html).not.toContain("evil.example");
    } finally {
      await plainApp.close();
    }
  });

  it("is the users module's declared action, POST /api/users/{id}/password-reset: audited with the address and expiry, never the token", async () => {
    await rm(outbox(), { recursive: true, force: true });
    const user = await insertUser(suite.db);
    const response = await call(
      suite.app,
      suite.desk,
      "POST",
      `/api/users/${user.id}/password-reset`,
    );
    expect(response.statusCode, response.body).toBe(202);
    const { expires_at } = response.json<{ status: string; expires_at: string }>();
    const mail = await takeMail();
    expect(mail.to).toBe(user.email);
    const token = /reset-password\?token=([\w-]+)/.exec(mail.text)![1]!;
    const [entry] = await auditEntries(suite.db, "users", user.id);
    expect(entry).toMatchObject({
      action: "user.reset_password",
      adminId: suite.deskAdminId,
      after: { email: user.email, expiresAt: expires_at },
    });
    expect(JSON.stringify(entry)).not.toContain(token);
    expectError(
      await call(suite.app, suite.desk, "POST", "/api/users/999999999/password-reset"),
      404,
      "NOT_FOUND",
    );
  });

  it("answers 502 MAIL_FAILED when the mail cannot be sent; the link is issued and the next replaces it", async () => {
    const failing = await createTestApp(suite.testDb, {
      SMTP_URL: `smtp://127.0.0.1:${await unusedPort()}`,
    });
    try {
      const user = await insertUser(suite.db);
      expectError(
        await reset({ account_number: user.accountNumber }, suite.desk, failing),
        502,
        "MAIL_FAILED",
      );
      const rows = await suite.db
        .select()
        .from(userPasswordResets)
        .where(eq(userPasswordResets.userId, user.id));
      expect(rows).toHaveLength(1);
    } finally {
      await failing.close();
    }
  });

  it("refuses unknown accounts (404), users without e-mail (409 NO_EMAIL) and callers without permission", async () => {
    expectError(await reset({ account_number: "NOPE-000" }), 404, "NOT_FOUND");
    const noEmail = await insertUser(suite.db, { email: null });
    expectError(await reset({ account_number: noEmail.accountNumber }), 409, "NO_EMAIL");
    expectError(await reset({ account_number: "" }), 400, "VALIDATION_ERROR");
    expectError(
      await reset({ account_number: noEmail.accountNumber, email: "x@y.z" }),
      400,
      "VALIDATION_ERROR",
    );
    expectNoPermission(
      await reset({ account_number: noEmail.accountNumber }, suite.finance),
      "POST",
      "Reset User Password",
    );
    const rows = await suite.db
      .select()
      .from(userPasswordResets)
      .where(eq(userPasswordResets.userId, noEmail.id));
    expect(rows).toEqual([]);
  });
});

describe("GET /user-mgmt/search-buyer", () => {
  const search = (text: string, token = suite.desk) =>
    call(suite.app, token, "GET", `/user-mgmt/search-buyer?search=${encodeURIComponent(text)}`);

  it("finds users by name, e-mail, phone or account number, at most 20", async () => {
    const user = await insertUser(suite.db, {
      name: "Xavierine Buyerton",
      email: "buyer.unique@shop.example",
      phone: "+60 17-424 2424",
    });
    for (const text of ["xavierine", "BUYER.UNIQUE", "424 2424", user.accountNumber]) {
      const response = await search(text);
      expect(response.statusCode, response.body).toBe(200);
      expect(
        response.json<{ users: MgmtUser[] }>().users.map((u) => u.id),
        text,
      ).toContain(user.id);
    }
    const broad = await search("ah");
    expect(broad.json<{ users: MgmtUser[] }>().users.length).toBeLessThanOrEqual(20);
    const literal = await search("%_");
    expect(literal.json<{ users: MgmtUser[] }>().users).toEqual([]);
  });

  it("needs at least two characters, no control characters and the User permission", async () => {
    const short = expectError(await search(" x "), 400, "VALIDATION_ERROR");
    expect(short.message).toBe("Invalid search: Search needs at least 2 characters");
    const control = expectError(await search("siti\u001fwong"), 400, "VALIDATION_ERROR");
    expect(control.message).toBe(
      "Invalid search: Text must not contain control characters or line breaks (found U+001F)",
    );
    expectError(
      await call(suite.app, suite.desk, "GET", "/user-mgmt/search-buyer"),
      400,
      "VALIDATION_ERROR",
    );
    expectNoPermission(await search("ahmad", suite.finance), "GET", "Search Buyer");
  });
});
