/**
 * Issue 16, item 8: a scheduled job runs once per interval however many schedulers (server
 * instances) check it; the housekeeping job deletes only what is expired. On both engines (the
 * two-process proof on PostgreSQL is multi-instance.test.ts).
 */
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  administrators,
  adminSessions,
  loginTickets,
  rateLimitCounters,
  scheduledJobs,
} from "../../server/db/schema";
import { embeddedVacuumJob } from "../../server/jobs/embedded-vacuum";
import { housekeepingJob } from "../../server/jobs/housekeeping";
import { startScheduledJobs, type JobLog } from "../../server/jobs/scheduler";
import { createTestDatabase, type TestDatabase } from "./support/database";

let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterAll(async () => {
  await testDb?.destroy();
});

const quiet: JobLog = { info: () => undefined, error: () => undefined };

describe("scheduled jobs", () => {
  it("runs a job once per interval, whichever of several schedulers claims it", async () => {
    const db = testDb.database.db;
    const done: string[] = [];
    const job = (instance: string) => ({
      name: "probe",
      everySeconds: 1,
      run: async () => {
        done.push(instance);
        return {};
      },
    });
    const started = Date.now();
    const schedulers = ["a", "b", "c"].map((instance) =>
      startScheduledJobs(db, [job(instance)], instance, quiet),
    );
    await new Promise((resolve) => setTimeout(resolve, 2_600));
    await Promise.all(schedulers.map((scheduler) => scheduler.stop()));
    const elapsedSeconds = (Date.now() - started) / 1000;

    const [row] = await db.select().from(scheduledJobs).where(eq(scheduledJobs.name, "probe"));
    expect(done.length).toBe(row?.runs);
    // At start, then once a second: three runs in 2.6 s, not one per scheduler and check.
    expect(done.length).toBeGreaterThanOrEqual(2);
    expect(done.length).toBeLessThanOrEqual(Math.floor(elapsedSeconds) + 1);
    expect(["a", "b", "c"]).toContain(row?.lastRunBy);
  });

  it("housekeeping deletes expired counters, tickets and old sessions, and keeps the live ones", async () => {
    const db = testDb.database.db;
    const past = sql`now() - interval '1 minute'`;
    const future = sql`now() + interval '1 hour'`;
    await db.insert(rateLimitCounters).values([
      { key: "expired-counter", hits: 3, resetsAt: past },
      { key: "live-counter", hits: 1, resetsAt: future },
    ]);
    const [admin] = await db.select({ id: administrators.id }).from(administrators).limit(1);
    const adminId = admin!.id;
    await db.insert(loginTickets).values([
      { digest: "expired-ticket", adminId, expiresAt: past },
      { digest: "live-ticket", adminId, expiresAt: future },
    ]);
    const session = (jti: string, expiresAt: ReturnType<typeof sql>) => ({
      jti,
      adminId,
      address: "127.0.0.1",
      device: "test",
      credentialVersion: 0,
      expiresAt,
      verifiedAt: new Date(),
      verifiedBy: "password" as const,
    });
    await db
      .insert(adminSessions)
      .values([
        session("month-old-session", sql`now() - interval '31 days'`),
        session("recent-session", past),
      ]);
    const result = await housekeepingJob(60).run(db);
    expect(result).toMatchObject({ expiredCounters: 1, expiredTickets: 1, expiredSessions: 1 });
    const counters = await db
      .select({ key: rateLimitCounters.key })
      .from(rateLimitCounters)
      .where(inArray(rateLimitCounters.key, ["expired-counter", "live-counter"]));
    expect(counters).toEqual([{ key: "live-counter" }]);
    const tickets = await db
      .select({ digest: loginTickets.digest })
      .from(loginTickets)
      .where(inArray(loginTickets.digest, ["expired-ticket", "live-ticket"]));
    expect(tickets).toEqual([{ digest: "live-ticket" }]);
    const sessions = await db
      .select({ jti: adminSessions.jti })
      .from(adminSessions)
      .where(inArray(adminSessions.jti, ["month-old-session", "recent-session"]));
    expect(sessions).toEqual([{ jti: "recent-session" }]);
  });

  it("the embedded store's vacuum job analyzes and vacuums its tables (PGlite has no autovacuum)", async () => {
    const db = testDb.database.db;
    const n = 3_000;
    await db.execute(sql`
      insert into rate_limit_counters (key, hits, resets_at)
      select 'vacuum-probe-' || i, 1, now() + interval '1 hour' from generate_series(1, ${n}) i`);
    const table = async (name: string) => {
      const { rows } = await db.execute<{ tuples: number; pages: number; visible: number }>(sql`
        select reltuples::int as tuples, relpages as pages, relallvisible as visible
        from pg_class where relname = ${name}`);
      return rows[0]!;
    };
    const count = async () => {
      const { rows } = await db.execute<{ n: number }>(
        sql`select count(*)::int as n from rate_limit_counters`,
      );
      return rows[0]!.n;
    };
    if (testDb.database.kind === "embedded") {
      // Nothing else would ever analyze it: the planner takes the table for empty.
      expect((await table("rate_limit_counters")).tuples).toBeLessThan(n);
    }

    const result = await embeddedVacuumJob().run(db);

    const after = await table("rate_limit_counters");
    expect(after.tuples).toBe(await count());
    expect(after.pages).toBeGreaterThan(0);
    expect(after.visible).toBe(after.pages);
    // Every table of a test store is small: all of them, every run.
    const { rows } = await db.execute<{ n: number }>(sql`
      select count(*)::int as n from pg_class
      where relkind = 'r' and relnamespace = 'public'::regnamespace`);
    expect(result.tables).toBe(rows[0]!.n);
    await db.delete(rateLimitCounters).where(sql`${rateLimitCounters.key} like 'vacuum-probe-%'`);
  });
});
