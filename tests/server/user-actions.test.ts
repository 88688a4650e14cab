import { describe, expect, it } from "vitest";

import type { UserDto } from "../../src/shared/schemas/users";
import { REMARK_MAX_LENGTH } from "../../src/shared/user-actions";
import {
  auditEntries,
  call,
  expectError,
  expectNoPermission,
  findUser,
  insertUser,
  useUserDeskSuite,
} from "./support/user-fixtures";

const suite = useUserDeskSuite();

describe("PATCH /api/users/{id}/approval-action", () => {
  const decide = (id: number | string, payload: unknown, token = suite.desk) =>
    call(suite.app, token, "PATCH", `/api/users/${id}/approval-action`, payload);

  it("approves a pending user with a trimmed remark, and audits before and after", async () => {
    const user = await insertUser(suite.db);
    const response = await decide(user.id, { action: "approve", remark: "  Documents OK  " });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<UserDto>()).toMatchObject({
      id: user.id,
      approvalStatus: "approved",
      approvalRemark: "Documents OK",
    });
    const [entry] = await auditEntries(suite.db, "users", user.id);
    expect(entry).toMatchObject({
      adminId: suite.deskAdminId,
      action: "user.approve",
      remark: "Documents OK",
      before: { approvalStatus: "pending", approvalRemark: null },
      after: { approvalStatus: "approved", approvalRemark: "Documents OK" },
    });
  });

  it("rejects a pending user", async () => {
    const user = await insertUser(suite.db);
    const response = await decide(user.id, { action: "reject", remark: "Blurred IC photo" });
    expect(response.statusCode, response.body).toBe(200);
    expect((await findUser(suite.db, user.id))?.approvalStatus).toBe("rejected");
    expect((await auditEntries(suite.db, "users", user.id))[0]?.action).toBe("user.reject");
  });

  it("refuses to decide a user twice (409 ALREADY_DECIDED) and changes nothing", async () => {
    const rejected = await insertUser(suite.db, {
      approvalStatus: "rejected",
      approvalRemark: "No",
    });
    const approved = await insertUser(suite.db, { approvalStatus: "approved" });
    expectError(
      await decide(rejected.id, { action: "approve", remark: "Try" }),
      409,
      "ALREADY_DECIDED",
    );
    expectError(
      await decide(approved.id, { action: "reject", remark: "Try" }),
      409,
      "ALREADY_DECIDED",
    );
    expect(await findUser(suite.db, rejected.id)).toMatchObject({
      approvalStatus: "rejected",
      approvalRemark: "No",
    });
    expect(await auditEntries(suite.db, "users", rejected.id)).toEqual([]);
  });

  it("refuses bad input with a message naming the field, changing nothing", async () => {
    const user = await insertUser(suite.db);
    const cases: Array<[unknown, string]> = [
      [{ action: "approve", remark: "   " }, "Invalid remark: Remark is required"],
      [{ action: "approve" }, "Invalid remark"],
      [
        { action: "reject", remark: "x".repeat(REMARK_MAX_LENGTH + 1) },
        `Invalid remark: Remark must be at most ${REMARK_MAX_LENGTH} characters`,
      ],
      [{ action: "maybe", remark: "Hm" }, "Invalid action"],
      [{ action: "approve", remark: "OK", extra: 1 }, "Invalid extra: Unknown field"],
    ];
    for (const [payload, message] of cases) {
      const body = expectError(await decide(user.id, payload), 400, "VALIDATION_ERROR");
      expect(body.message, JSON.stringify(payload)).toContain(message);
    }
    const malformed = await suite.app.inject({
      method: "PATCH",
      url: `/v1/api/users/${user.id}/approval-action`,
      headers: { authorization: suite.desk, "content-type": "application/json" },
      payload: '{"action": "approve",',
    });
    expect(malformed.statusCode).toBe(400);
    expect((await findUser(suite.db, user.id))?.approvalStatus).toBe("pending");
    expect(await auditEntries(suite.db, "users", user.id)).toEqual([]);
  });

  it("answers 404 NOT_FOUND for an unknown user and 400 for a malformed id", async () => {
    expectError(await decide(2_000_000_000, { action: "approve", remark: "OK" }), 404, "NOT_FOUND");
    expectError(await decide("abc", { action: "approve", remark: "OK" }), 400, "VALIDATION_ERROR");
  });

  it("needs the User permission (0)", async () => {
    const user = await insertUser(suite.db);
    const response = await decide(user.id, { action: "approve", remark: "OK" }, suite.finance);
    expectNoPermission(response, "PATCH", "User Approval");
    expect((await findUser(suite.db, user.id))?.approvalStatus).toBe("pending");
  });
});

describe("PATCH /api/users/{id}/ban", () => {
  const ban = (id: number, payload: unknown, token = suite.desk) =>
    call(suite.app, token, "PATCH", `/api/users/${id}/ban`, payload);

  it("bans with a remark and unbans, auditing both", async () => {
    const user = await insertUser(suite.db, { approvalStatus: "approved" });
    const banned = await ban(user.id, { ban: true, remark: "Chargeback abuse" });
    expect(banned.statusCode, banned.body).toBe(200);
    expect(banned.json<UserDto>()).toMatchObject({ isBanned: true, banRemark: "Chargeback abuse" });

    const unbanned = await ban(user.id, { ban: false });
    expect(unbanned.statusCode, unbanned.body).toBe(200);
    expect(unbanned.json<UserDto>()).toMatchObject({ isBanned: false, banRemark: null });

    const [unbanEntry, banEntry] = await auditEntries(suite.db, "users", user.id);
    expect(banEntry).toMatchObject({
      action: "user.ban",
      remark: "Chargeback abuse",
      before: { isBanned: false, banRemark: null },
      after: { isBanned: true, banRemark: "Chargeback abuse" },
    });
    expect(unbanEntry).toMatchObject({
      action: "user.unban",
      remark: null,
      before: { isBanned: true },
      after: { isBanned: false, banRemark: null },
    });
  });

  it("requires a remark when banning, at most 500 characters", async () => {
    const user = await insertUser(suite.db);
    const missing = expectError(await ban(user.id, { ban: true }), 400, "VALIDATION_ERROR");
    expect(missing.message).toBe("Invalid remark: Remark is required when banning");
    expectError(await ban(user.id, { ban: true, remark: "" }), 400, "VALIDATION_ERROR");
    expectError(
      await ban(user.id, { ban: true, remark: "x".repeat(REMARK_MAX_LENGTH + 1) }),
      400,
      "VALIDATION_ERROR",
    );
    expectError(await ban(user.id, { ban: "yes", remark: "x" }), 400, "VALIDATION_ERROR");
    expect((await findUser(suite.db, user.id))?.isBanned).toBe(false);
  });

  it("answers 409 ALREADY_IN_STATE when the user already is (or is not) banned", async () => {
    const user = await insertUser(suite.db);
    expectError(await ban(user.id, { ban: false }), 409, "ALREADY_IN_STATE");
    const banned = await insertUser(suite.db, { isBanned: true, banRemark: "Old" });
    expectError(await ban(banned.id, { ban: true, remark: "Again" }), 409, "ALREADY_IN_STATE");
    expect(await findUser(suite.db, banned.id)).toMatchObject({ banRemark: "Old" });
  });

  it("answers 404 for an unknown user and 403 without the User permission", async () => {
    expectError(await ban(2_000_000_000, { ban: true, remark: "x" }), 404, "NOT_FOUND");
    const user = await insertUser(suite.db);
    expectNoPermission(
      await ban(user.id, { ban: true, remark: "x" }, suite.finance),
      "PATCH",
      "User Ban",
    );
  });
});

describe("PATCH /api/users/{id}/url", () => {
  const setUrl = (id: number, payload: unknown, token = suite.desk) =>
    call(suite.app, token, "PATCH", `/api/users/${id}/url`, payload);

  it("sets an http(s) URL and clears it with null, auditing each change", async () => {
    const user = await insertUser(suite.db);
    const set = await setUrl(user.id, { url: "https://shop.example/merchant?id=7" });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<UserDto>().url).toBe("https://shop.example/merchant?id=7");
    const cleared = await setUrl(user.id, { url: null });
    expect(cleared.json<UserDto>().url).toBeNull();
    const entries = await auditEntries(suite.db, "users", user.id);
    expect(entries.map((e) => e.action)).toEqual(["user.set_url", "user.set_url"]);
    expect(entries[1]).toMatchObject({
      before: { url: null },
      after: { url: "https://shop.example/merchant?id=7" },
    });
  });

  it("refuses anything but an absolute http(s) URL of at most 2048 characters", async () => {
    const user = await insertUser(suite.db, { url: "http://kept.example" });
    const bad = [
      "javascript:alert(1)",
      "ftp://files.example/x",
      "www.example.com",
      "/relative/path",
      "",
      `https://example.com/${"a".repeat(2048)}`,
    ];
    for (const url of bad) {
      const body = expectError(await setUrl(user.id, { url }), 400, "VALIDATION_ERROR");
      expect(body.message, url).toMatch(/^Invalid url: /);
    }
    expectError(await setUrl(user.id, {}), 400, "VALIDATION_ERROR");
    expect((await findUser(suite.db, user.id))?.url).toBe("http://kept.example");
    expect(await auditEntries(suite.db, "users", user.id)).toEqual([]);
  });

  it("answers 404 for an unknown user and 403 without the User permission", async () => {
    expectError(await setUrl(2_000_000_000, { url: "https://a.example" }), 404, "NOT_FOUND");
    const user = await insertUser(suite.db);
    expectNoPermission(
      await setUrl(user.id, { url: "https://a.example" }, suite.finance),
      "PATCH",
      "User URL",
    );
  });
});

describe("GET /api/users/{id}/audit", () => {
  const history = (id: number | string, query = "", token = suite.desk) =>
    call(suite.app, token, "GET", `/api/users/${id}/audit${query}`);

  it("lists the entries about the user, newest first, with the administrator's name", async () => {
    const user = await insertUser(suite.db);
    await call(suite.app, suite.desk, "PATCH", `/api/users/${user.id}/approval-action`, {
      action: "approve",
      remark: "Fine",
    });
    await call(suite.app, suite.desk, "PATCH", `/api/users/${user.id}/ban`, {
      ban: true,
      remark: "Abuse",
    });
    const response = await history(user.id);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ totalCount: number; entries: Array<Record<string, unknown>> }>();
    expect(body.totalCount).toBe(2);
    expect(body.entries.map((e) => e.action)).toEqual(["user.ban", "user.approve"]);
    expect(body.entries[0]).toMatchObject({
      adminId: suite.deskAdminId,
      adminName: "User Desk",
      remark: "Abuse",
      before: { isBanned: false },
      after: { isBanned: true },
    });

    const page2 = await history(user.id, "?page=2&pageSize=1");
    expect(
      page2.json<{ entries: Array<{ action: string }> }>().entries.map((e) => e.action),
    ).toEqual(["user.approve"]);
  });

  it("answers 404 for an unknown user, 400 for bad paging and 403 without permission", async () => {
    expectError(await history(2_000_000_000), 404, "NOT_FOUND");
    const user = await insertUser(suite.db);
    expectError(await history(user.id, "?pageSize=1000"), 400, "VALIDATION_ERROR");
    expectError(await history(user.id, "?limit=5"), 400, "VALIDATION_ERROR");
    expectNoPermission(await history(user.id, "", suite.finance), "GET", "User History");
  });
});
