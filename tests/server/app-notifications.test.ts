/**
 * Announcement > App Notification (issue 13, item 4) through HTTP on a real database: create
 * (send now or at a time), delivery by the job queue (one inbox row per matching active user,
 * exactly once, also when two instances race and when a holder dies mid-delivery), cancel until
 * sent, the sent result and its recipients, bad input that changes nothing, and permissions.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { appNotifications, jobQueue, userNotifications, users } from "../../server/db/schema";
import { startJobQueue, type JobQueue } from "../../server/jobs/queue";
import { deliveryJob, DELIVERY_QUEUE } from "../../server/modules/app-notifications";
import type { UserRole } from "../../src/shared/domain";
import { createAdmin, DEMO, login, useSignedInApp } from "./support/app";
import {
  auditEntries,
  call,
  expectError,
  expectNoPermission,
  insertUser,
} from "./support/user-fixtures";

const suite = useSignedInApp();
let writer = "";
let desk = "";
const queues: JobQueue[] = [];

const silent = { info() {}, error() {} };
/** A queue worker of this test file's own (the app under test runs none). */
const worker = (instance: string, batchSize = 7) => {
  const queue = startJobQueue(
    suite.testDb.database.db,
    [deliveryJob({ batchSize })],
    instance,
    silent,
    {
      pollMs: 40,
      leaseSeconds: 5,
    },
  );
  queues.push(queue);
  return queue;
};

beforeAll(async () => {
  writer = (await createAdmin(suite.app, suite.token, [16])).token;
  desk = (await login(suite.app, DEMO.userDesk)).token;
});

afterAll(async () => {
  await Promise.all(queues.map((queue) => queue.stop()));
});

const db = () => suite.testDb.database.db;
const inFuture = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
const draft = (overrides: Record<string, unknown> = {}) => ({
  titleEn: "Library closes early",
  titleZh: "图书馆提早关闭",
  bodyEn: "The library closes at 6 pm on Friday.\nPlease plan ahead.",
  bodyZh: "周五图书馆下午六点关闭。\n请提前安排。",
  audience: ["student", "staff"],
  ...overrides,
});

interface Notification {
  id: number;
  status: string;
  recipientCount: number;
  sentAt: string | null;
  sendAt: string;
  audience: string[];
}

const create = (body: unknown, token = writer) =>
  call(suite.app, token, "POST", "/api/app-notifications", body);
const read = async (id: number) => {
  const response = await call(suite.app, writer, "GET", `/api/app-notifications/${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Notification>();
};
const cancel = (id: number, remark: unknown = "Sent by mistake") =>
  call(suite.app, writer, "POST", `/api/app-notifications/${id}/cancel`, { remark });

async function until(id: number, status: string, timeoutMs = 20_000): Promise<Notification> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const notification = await read(id);
    if (notification.status === status) return notification;
    if (Date.now() > deadline) throw new Error(`#${id} stayed ${notification.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Who should receive a notification to `roles`: approved, unbanned users of those roles. */
async function expectedRecipients(roles: UserRole[]): Promise<number[]> {
  const rows = await db()
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        inArray(users.role, roles),
        eq(users.approvalStatus, "approved"),
        eq(users.isBanned, false),
      ),
    )
    .orderBy(users.id);
  return rows.map((row) => row.id);
}

async function inboxOf(id: number) {
  const rows = await db()
    .select({ userId: userNotifications.userId })
    .from(userNotifications)
    .where(eq(userNotifications.notificationId, id))
    .orderBy(userNotifications.userId);
  return rows.map((row) => row.userId);
}

const countOf = async (table: typeof appNotifications | typeof jobQueue) =>
  (
    await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(table)
  )[0]!.n;

describe("POST /api/app-notifications and its delivery", () => {
  it("sends at once to every active user of the roles, one inbox row each, and reports the result", async () => {
    // Users the audience must leave out: pending, banned, and of another role.
    const pending = await insertUser(db(), { role: "student" });
    const banned = await insertUser(db(), {
      role: "staff",
      approvalStatus: "approved",
      isBanned: true,
    });
    const rider = await insertUser(db(), { role: "rider", approvalStatus: "approved" });
    const created = await create(draft());
    expect(created.statusCode, created.body).toBe(201);
    const notification = created.json<Notification>();
    expect(notification).toMatchObject({ status: "scheduled", recipientCount: 0, sentAt: null });
    expect(notification.audience).toEqual(["student", "staff"]);

    worker("instance-a");
    const sent = await until(notification.id, "sent");
    const expected = await expectedRecipients(["student", "staff"]);
    expect(expected.length).toBeGreaterThan(7); // more than one step
    expect(await inboxOf(notification.id)).toEqual(expected);
    expect(sent.recipientCount).toBe(expected.length);
    expect(sent.sentAt).not.toBeNull();
    for (const outsider of [pending.id, banned.id, rider.id])
      expect(expected).not.toContain(outsider);

    const recipients = await call(
      suite.app,
      writer,
      "GET",
      `/api/app-notifications/${notification.id}/recipients?pagination=${encodeURIComponent('{"page":2,"pageSize":5}')}`,
    );
    expect(recipients.statusCode, recipients.body).toBe(200);
    const page = recipients.json<{ totalCount: number; recipients: Array<{ userId: number }> }>();
    expect(page.totalCount).toBe(expected.length);
    expect(page.recipients.map((row) => row.userId)).toEqual(expected.slice(5, 10));

    const history = (await auditEntries(db(), "app_notifications", notification.id)).map(
      (entry) => entry.action,
    );
    expect(history).toEqual(["app_notification.sent", "app_notification.create"]);
    expect(
      await db()
        .select()
        .from(jobQueue)
        .where(eq(jobQueue.key, `app-notification:${notification.id}`)),
    ).toEqual([]);
  });

  it("waits for the time it is scheduled at, then sends", async () => {
    worker("instance-b");
    const created = await create(draft({ audience: ["merchant"], sendAt: inFuture(2) }));
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<Notification>();
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect((await read(id)).status).toBe("scheduled");
    expect(await inboxOf(id)).toEqual([]);
    const sent = await until(id, "sent");
    expect(await inboxOf(id)).toEqual(await expectedRecipients(["merchant"]));
    expect(sent.recipientCount).toBe((await expectedRecipients(["merchant"])).length);
    expect(new Date(sent.sentAt!).getTime()).toBeGreaterThanOrEqual(
      new Date(sent.sendAt).getTime(),
    );
  });

  it("delivers exactly once when several instances race for the same jobs", async () => {
    const ids: number[] = [];
    for (const audience of [["student"], ["staff", "public"], ["student", "merchant", "rider"]]) {
      const created = await create(draft({ audience, sendAt: inFuture(1) }));
      expect(created.statusCode, created.body).toBe(201);
      ids.push(created.json<Notification>().id);
    }
    for (const name of ["race-1", "race-2", "race-3"]) worker(name, 3);
    for (const [index, audience] of [
      ["student"],
      ["staff", "public"],
      ["student", "merchant", "rider"],
    ].entries()) {
      const sent = await until(ids[index]!, "sent");
      const expected = await expectedRecipients(audience as UserRole[]);
      expect(await inboxOf(ids[index]!)).toEqual(expected);
      expect(sent.recipientCount).toBe(expected.length);
    }
  });

  it("continues a delivery whose holder died mid-way, from where it stopped, without a second row", async () => {
    const created = await create(draft({ audience: ["student"], sendAt: inFuture(3600) }));
    const { id } = created.json<Notification>();
    const expected = await expectedRecipients(["student"]);
    // A dead instance's state: it wrote the first 4 rows and moved the cursor, then died holding
    // the job; its lease has lapsed.
    await db()
      .insert(userNotifications)
      .values(expected.slice(0, 4).map((userId) => ({ notificationId: id, userId })));
    await db()
      .update(appNotifications)
      .set({ status: "sending", recipientCount: 4, deliveredThrough: expected[3]! })
      .where(eq(appNotifications.id, id));
    await db()
      .update(jobQueue)
      .set({
        runAt: sql`now() - interval '1 minute'`,
        lockedBy: "dead",
        lockedUntil: sql`now() - interval '1 second'`,
        attempts: 1,
      })
      .where(eq(jobQueue.key, `app-notification:${id}`));
    const sending = await read(id);
    expect(sending.status).toBe("sending");
    expectError(await cancel(id), 409, "NOTIFICATION_NOT_CANCELLABLE");

    const sent = await until(id, "sent");
    expect(await inboxOf(id)).toEqual(expected);
    expect(sent.recipientCount).toBe(expected.length);
  });
});

describe("POST /api/app-notifications/:id/cancel", () => {
  it("cancels a scheduled notification: it is never sent, and the change is audited", async () => {
    const created = await create(draft({ sendAt: inFuture(1) }));
    const { id } = created.json<Notification>();
    const response = await cancel(id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ status: "cancelled", remark: "Sent by mistake" });
    expect(
      await db()
        .select()
        .from(jobQueue)
        .where(eq(jobQueue.key, `app-notification:${id}`)),
    ).toEqual([]);
    worker("instance-c");
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await read(id)).status).toBe("cancelled");
    expect(await inboxOf(id)).toEqual([]);
    const [entry] = await auditEntries(db(), "app_notifications", id);
    expect(entry).toMatchObject({ action: "app_notification.withdraw", remark: "Sent by mistake" });
  });

  it("refuses to cancel a sent or cancelled notification, with a code the console translates, and changes nothing", async () => {
    worker("instance-d");
    const { id } = (await create(draft({ audience: ["agent"] }))).json<Notification>();
    const sent = await until(id, "sent");
    const body = expectError(await cancel(id), 409, "NOTIFICATION_NOT_CANCELLABLE");
    expect(body).toMatchObject({ data: { status: "sent" } });
    expect(await read(id)).toEqual(sent);
    expect(await auditEntries(db(), "app_notifications", id)).toHaveLength(2);

    const other = (await create(draft({ sendAt: inFuture(3600) }))).json<Notification>();
    expect((await cancel(other.id)).statusCode).toBe(200);
    expectError(await cancel(other.id), 409, "NOTIFICATION_NOT_CANCELLABLE");
  });

  it("requires a remark", async () => {
    const { id } = (await create(draft({ sendAt: inFuture(3600) }))).json<Notification>();
    expectError(await cancel(id, "  "), 400, "VALIDATION_ERROR");
    expect((await read(id)).status).toBe("scheduled");
  });
});

describe("POST /api/app-notifications/audience-count", () => {
  const count = (body: unknown, token = writer) =>
    call(suite.app, token, "POST", "/api/app-notifications/audience-count", body);

  it("counts the users a notification to those roles would reach now, changing nothing", async () => {
    await insertUser(db(), { role: "rider", approvalStatus: "approved" });
    await insertUser(db(), { role: "rider", approvalStatus: "approved", isBanned: true });
    await insertUser(db(), { role: "rider", approvalStatus: "pending" });
    const before = await countOf(appNotifications);
    for (const roles of [["rider"], ["student", "staff"]] as UserRole[][]) {
      const response = await count({ audience: roles });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ count: (await expectedRecipients(roles)).length });
    }
    expect(await countOf(appNotifications)).toBe(before);
  });

  it("refuses a bad audience with 400, and staff without Announcement (16)", async () => {
    for (const body of [
      { audience: [] },
      { audience: ["alumni"] },
      { audience: ["staff", "staff"] },
      {},
      { audience: ["staff"], x: 1 },
    ]) {
      expectError(await count(body), 400, "VALIDATION_ERROR");
    }
    expectNoPermission(
      await count({ audience: ["staff"] }, desk),
      "POST",
      "App Notification Audience",
    );
  });
});

describe("bad input", () => {
  it.each([
    ["an empty title", { titleEn: "   " }],
    ["a missing Chinese body", { bodyZh: undefined }],
    ["a title with a NUL character", { titleEn: "Hello\u0000" }],
    ["a title over 120 characters", { titleEn: "x".repeat(121) }],
    ["a body over 2000 characters", { bodyEn: "x".repeat(2001) }],
    ["an unknown role", { audience: ["student", "alumni"] }],
    ["no role", { audience: [] }],
    ["a role twice", { audience: ["staff", "staff"] }],
    ["an audience that is not a list", { audience: "student" }],
    ["a send time that is no time", { sendAt: "tomorrow" }],
    ["an unknown field", { priority: "high" }],
  ])("refuses %s with 400 and stores nothing", async (_, overrides) => {
    const before = await countOf(appNotifications);
    const jobs = await countOf(jobQueue);
    expectError(await create(draft(overrides)), 400, "VALIDATION_ERROR");
    expect(await countOf(appNotifications)).toBe(before);
    expect(await countOf(jobQueue)).toBe(jobs);
  });

  it("refuses a send time in the past with SCHEDULE_IN_PAST and stores nothing", async () => {
    const before = await countOf(appNotifications);
    const body = expectError(
      await create(draft({ sendAt: inFuture(-300) })),
      400,
      "SCHEDULE_IN_PAST",
    );
    expect(body.message).toMatch(/past/);
    expect(await countOf(appNotifications)).toBe(before);
  });
});

describe("permissions", () => {
  it("refuses staff without Announcement (16) on every route", async () => {
    expectNoPermission(await create(draft(), desk), "POST", "App Notification");
    expectNoPermission(
      await call(suite.app, desk, "GET", "/api/app-notifications/aggregation"),
      "GET",
      "App Notifications",
    );
  });

  it("the job queue holds one delivery per notification", async () => {
    const { id } = (await create(draft({ sendAt: inFuture(3600) }))).json<Notification>();
    const jobs = await db()
      .select()
      .from(jobQueue)
      .where(eq(jobQueue.key, `app-notification:${id}`));
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ queue: DELIVERY_QUEUE, payload: { notificationId: id } });
  });
});
