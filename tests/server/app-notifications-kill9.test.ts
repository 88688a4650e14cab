/**
 * App notifications survive a crash mid-delivery (issue 13), on the database this suite runs on:
 * notifications are scheduled on the real server process, which is killed with SIGKILL while one
 * of them is being delivered, then started again on the same data. Once the restarted server has
 * finished, every matching active user holds exactly one inbox row per notification, and each
 * notification's recipient count is that number.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { openDatabase } from "../../server/db";
import { users, userNotifications } from "../../server/db/schema";
import type { UserRole } from "../../src/shared/domain";
import { DEMO } from "./support/app";
import { createTestDatabase, testEnv, type TestDatabase } from "./support/database";
import { freePort, startSignedIn } from "./support/server-process";

/** Users added for the test, so that a delivery takes many steps. */
const EXTRA_USERS = 6_000;
const BATCH = 150;

let testDb: TestDatabase;
let env: Record<string, string>;

const open = () =>
  openDatabase({ dataDir: testDb.dataDir, databaseUrl: testDb.url, migrate: false });

beforeAll(async () => {
  testDb = await createTestDatabase();
  await testDb.database.db.execute(sql`insert into ${users}
      (account_number, name, role, approval_status, is_banned)
    select 'K' || lpad(n::text, 9, '0'), 'Crash Test ' || n,
      (array['student', 'staff', 'public'])[1 + n % 3],
      case when n % 10 = 0 then 'pending' else 'approved' end, n % 17 = 0
    from generate_series(1, ${EXTRA_USERS}) as n`);
  // The process under test opens the store itself.
  await testDb.database.close();
  env = {
    ...testEnv(testDb.dataDir, testDb.url ? { DATABASE_URL: testDb.url } : {}),
    PORT: String(await freePort()),
    HOST: "127.0.0.1",
    DATABASE_POOL_MAX: "4",
    JOB_POLL_MS: "100",
    JOB_LEASE: "2s",
    NOTIFICATION_BATCH_SIZE: String(BATCH),
  };
}, 300_000);

afterAll(async () => {
  await testDb?.destroy();
});

const started = () => startSignedIn(env, DEMO.superAdmin);

interface Notification {
  id: number;
  status: string;
  recipientCount: number;
  audience: UserRole[];
}

const read = async (base: string, token: string, id: number) => {
  const response = await fetch(`${base}/api/app-notifications/${id}`, {
    headers: { authorization: token },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Notification;
};

describe("a server killed with SIGKILL while delivering notifications", () => {
  it("ends with exactly one inbox row per recipient of each, after a restart", async () => {
    const first = await started();
    const ids: number[] = [];
    for (const [index, audience] of [["student", "staff"], ["public"], ["student"]].entries()) {
      const response = await fetch(`${first.base}/api/app-notifications`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: first.token },
        body: JSON.stringify({
          titleEn: `Crash test ${index}`,
          titleZh: `崩溃测试 ${index}`,
          bodyEn: "Delivered exactly once.",
          bodyZh: "只送达一次。",
          audience,
          // The first at once, the others a moment later: scheduled, queued behind it.
          ...(index === 0 ? {} : { sendAt: new Date(Date.now() + 1000 * index).toISOString() }),
        }),
      });
      expect(response.status, await response.clone().text()).toBe(201);
      ids.push(((await response.json()) as Notification).id);
    }

    // Killed once the first delivery has committed some steps, and before it is over.
    let seen: Notification | undefined;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      seen = await read(first.base, first.token, ids[0]!);
      if (seen.status === "sending" && seen.recipientCount >= 2 * BATCH) break;
      expect(seen.status, "the delivery ended before the kill").not.toBe("sent");
    }
    first.run.kill("SIGKILL");
    expect(await first.run.exit).toBeNull();
    expect(seen?.status).toBe("sending");
    console.info(
      `kill -9 on ${testDb.kind} after ${seen?.recipientCount} inbox rows of #${ids[0]}`,
    );

    const second = await started();
    const finished: Notification[] = [];
    try {
      for (const id of ids) {
        const until = Date.now() + 120_000;
        let notification = await read(second.base, second.token, id);
        while (notification.status !== "sent" && Date.now() < until) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          notification = await read(second.base, second.token, id);
        }
        expect(notification.status, `#${id}`).toBe("sent");
        finished.push(notification);
      }
    } finally {
      second.run.kill("SIGTERM");
      await second.run.exit;
    }

    const database = await open();
    try {
      const { db } = database;
      for (const notification of finished) {
        const expected = await db
          .select({ id: users.id })
          .from(users)
          .where(
            and(
              inArray(users.role, notification.audience),
              eq(users.approvalStatus, "approved"),
              eq(users.isBanned, false),
            ),
          )
          .orderBy(users.id);
        const rows = await db
          .select({ userId: userNotifications.userId, n: sql<number>`count(*)::int` })
          .from(userNotifications)
          .where(eq(userNotifications.notificationId, notification.id))
          .groupBy(userNotifications.userId)
          .orderBy(userNotifications.userId);
        expect(
          rows.filter((row) => row.n !== 1),
          `#${notification.id}: duplicates`,
        ).toEqual([]);
        expect(rows.map((row) => row.userId)).toEqual(expected.map((row) => row.id));
        expect(notification.recipientCount).toBe(expected.length);
      }
      expect(finished[0]!.recipientCount).toBeGreaterThan(2 * BATCH);
    } finally {
      await database.close();
    }
  }, 300_000);
});
