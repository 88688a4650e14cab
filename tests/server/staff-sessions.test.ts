/**
 * Issue 33, item 4: staff sessions kept by the server. A session unused for SESSION_IDLE_MINUTES
 * ends (the console's own polling, marked with X-Idle-Seconds, does not keep it alive); an
 * administrator lists their open sessions and ends one or all the others; an ended session's
 * token is refused by every instance on the database.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { administrators, adminSessions, auditLog } from "../../server/db/schema";
import { dormantAdministratorsJob } from "../../server/jobs/dormant-administrators";
import { auth, createAdmin, createTestApp, login, useSignedInApp } from "./support/app";
import { ageUse } from "./support/factors";
import { A_REASON } from "./support/four-eyes";

const suite = useSignedInApp();
const db = () => suite.testDb.database.db;

const me = (token: string, headers: Record<string, string> = {}, app = suite.app) =>
  app.inject({ url: "/v1/api/account/admin", headers: { ...auth(token), ...headers } });

interface SessionDto {
  id: string;
  address: string;
  device: string;
  createdAt: string;
  lastSeenAt: string;
  current: boolean;
}
const sessionsOf = async (token: string) => {
  const answer = await suite.app.inject({ url: "/v1/api/account/sessions", headers: auth(token) });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<{ data: SessionDto[] }>().data;
};

describe("the idle timeout", () => {
  it("ends a session unused for 15 minutes, for good", async () => {
    const { admin, token } = await createAdmin(suite.app, suite.token, [0]);
    await ageUse(db(), admin.id, 14);
    expect((await me(token)).statusCode).toBe(200); // 14 minutes: still alive, and used again now
    await ageUse(db(), admin.id, 16);
    const expired = await me(token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ message: "JWT expired" });
    const [row] = await db()
      .select()
      .from(adminSessions)
      .where(eq(adminSessions.adminId, admin.id));
    expect(row).toMatchObject({ endReason: "idle" });
    // Ended, not merely late: making the row look recent again does not bring it back.
    await db()
      .update(adminSessions)
      .set({ lastSeenAt: new Date() })
      .where(eq(adminSessions.adminId, admin.id));
    expect((await me(token)).statusCode).toBe(401);
  });

  it("is not reset by the console's polling (X-Idle-Seconds), and is by a request without it", async () => {
    const { admin, token } = await createAdmin(suite.app, suite.token, [0]);
    await ageUse(db(), admin.id, 10);
    const lastSeen = async () =>
      (await db().select().from(adminSessions).where(eq(adminSessions.adminId, admin.id)))[0]!
        .lastSeenAt;
    const before = await lastSeen();
    // The console has seen no key press for 10 minutes: its poll is served, and is no activity.
    expect((await me(token, { "x-idle-seconds": "600" })).statusCode).toBe(200);
    expect(await lastSeen()).toEqual(before);
    // The user clicked 2 minutes ago: that is when the session was last used.
    expect((await me(token, { "x-idle-seconds": "120" })).statusCode).toBe(200);
    const clicked = (await lastSeen()).getTime();
    expect(Math.abs(clicked - (Date.now() - 120_000))).toBeLessThan(5_000);
    // Junk in the header is no excuse for idleness: the request counts as activity.
    expect((await me(token, { "x-idle-seconds": "-5" })).statusCode).toBe(200);
    expect(Date.now() - (await lastSeen()).getTime()).toBeLessThan(5_000);
    // Polling for 16 minutes after the last click ends it.
    await ageUse(db(), admin.id, 16);
    expect((await me(token, { "x-idle-seconds": "960" })).statusCode).toBe(401);
  });

  it("is configurable (SESSION_IDLE_MINUTES), and the console reads it from GET /api/auth/session", async () => {
    const app = await createTestApp(suite.testDb, { SESSION_IDLE_MINUTES: "30" });
    try {
      const { token } = await login(app, {
        email: "userdesk@wallet.example",
        password: "UserDesk#2026",
      });
      const state = await app.inject({ url: "/v1/api/auth/session", headers: auth(token) });
      expect(state.json()).toMatchObject({
        idleMinutes: 30,
        stepUpMinutes: 60,
        stepUpMethods: ["password"],
      });
    } finally {
      await app.close();
    }
  });
});

describe("an administrator's sessions", () => {
  it("are listed with where and on what they were signed in, this one marked", async () => {
    const { admin, password } = await createAdmin(suite.app, suite.token, [0]);
    const phone = await suite.app.inject({
      method: "POST",
      url: "/v1/api/auth/login",
      remoteAddress: "10.33.44.55",
      headers: { "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)\u0000" },
      payload: { email: admin.email, password },
    });
    const laptop = (await login(suite.app, { email: admin.email, password })).token;
    const listed = await sessionsOf(laptop);
    // createAdmin's own sign-in, the phone and the laptop.
    expect(listed).toHaveLength(3);
    expect(listed.filter((s) => s.current)).toHaveLength(1);
    const fromPhone = listed.find((s) => s.address === "10.33.44.55")!;
    expect(fromPhone).toMatchObject({
      current: false,
      device: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)",
    });
    // Another administrator's session is not theirs to end.
    const foreign = await suite.app.inject({
      method: "DELETE",
      url: `/v1/api/account/sessions/${fromPhone.id}`,
      headers: auth(suite.token),
    });
    expect(foreign.statusCode).toBe(404);
    const ended = await suite.app.inject({
      method: "DELETE",
      url: `/v1/api/account/sessions/${fromPhone.id}`,
      headers: auth(laptop),
    });
    expect(ended.statusCode).toBe(204);
    expect((await me(phone.json<{ token: string }>().token)).statusCode).toBe(401);
    expect(await sessionsOf(laptop)).toHaveLength(2);
    const junk = await suite.app.inject({
      method: "DELETE",
      url: "/v1/api/account/sessions/not-a-session%00",
      headers: auth(laptop),
    });
    expect(junk.statusCode).toBe(400);
  });

  it("end everywhere else at once, on every server instance, and this one goes on", async () => {
    const { admin, token, password } = await createAdmin(suite.app, suite.token, [0]);
    const other = await createTestApp(suite.testDb);
    try {
      const elsewhere = (await login(other, { email: admin.email, password })).token;
      expect((await me(elsewhere, {}, other)).statusCode).toBe(200);
      const answer = await suite.app.inject({
        method: "POST",
        url: "/v1/api/account/sessions/end-others",
        headers: auth(token),
      });
      expect(answer.json()).toEqual({ ended: 1 });
      expect((await me(elsewhere, {}, other)).statusCode).toBe(401);
      expect((await me(token, {}, other)).statusCode).toBe(200);
      expect((await sessionsOf(token)).map((s) => s.current)).toEqual([true]);
    } finally {
      await other.close();
    }
  });

  it("end with a password change, all but the one that changed it", async () => {
    const { admin, token, password } = await createAdmin(suite.app, suite.token, [0]);
    await login(suite.app, { email: admin.email, password });
    const changed = await suite.app.inject({
      method: "POST",
      url: "/v1/api/account/password",
      headers: auth(token),
      payload: { currentPassword: password, newPassword: "Another#Horse2" },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const fresh = changed.json<{ token: string }>().token;
    expect((await sessionsOf(fresh)).map((s) => s.current)).toEqual([true]);
  });
});

describe("an administrator who has not signed in for 90 days", () => {
  it("is disabled by the scheduled job, audited, and enabled again only by another administrator", async () => {
    const { admin, token } = await createAdmin(suite.app, suite.token, [0]);
    const recent = await createAdmin(suite.app, suite.token, [0]);
    await db()
      .update(administrators)
      .set({ lastLoginAt: new Date(Date.now() - 91 * 86_400_000) })
      .where(eq(administrators.id, admin.id));
    await db()
      .update(administrators)
      .set({ lastLoginAt: new Date(Date.now() - 89 * 86_400_000) })
      .where(eq(administrators.id, recent.admin.id));
    const result = await dormantAdministratorsJob(90).run(db());
    expect(result.disabledAdministrators).toBeGreaterThanOrEqual(1);
    const status = async (id: number) =>
      (await db().select().from(administrators).where(eq(administrators.id, id)))[0]!.status;
    expect(await status(admin.id)).toBe("disabled");
    expect(await status(recent.admin.id)).toBe("active");
    // Its tokens stop working, and the disabled administrator is told so.
    expect((await me(token)).statusCode).toBe(403);
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.targetId, String(admin.id)), eq(auditLog.action, "administrator.disable")),
      );
    expect(entry).toMatchObject({ adminId: null, remark: "No sign-in for 90 days" });
    // Another administrator enables it (a super administrator here).
    const enabled = await suite.app.inject({
      method: "PATCH",
      url: `/v1/api/administrators/${admin.id}/status`,
      headers: { ...auth(suite.token), ...A_REASON },
      payload: { status: "active" },
    });
    expect(enabled.statusCode, enabled.body).toBeLessThan(300);
  });
});
