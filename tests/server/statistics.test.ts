import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { App } from "../../server/app";
import { businessDayStart } from "../../server/business-day";
import type { Db, Tx } from "../../server/db";
import { CLOSE_GRACE_MS, closeDays, reopenDays } from "../../server/db/closed-days";
import { rebuildLedgerRollups } from "../../server/db/ledger-rollups";
import { LEDGER_SHARDS } from "../../server/db/ledger-shards";
import { wallets } from "../../server/db/schema";
import {
  payFromWallet,
  refundPayment,
  reverseTopUp,
  topUpWallet,
} from "../../server/services/ledger";
import { addDays } from "../../server/business-day";
import { bucketsOf, TOP_MERCHANTS } from "../../server/services/statistics";
import { PERMISSION } from "../../src/shared/permissions";
import type { Statistics } from "../../src/shared/schemas/statistics";
import { auth, createAdmin, createTestApp, DEMO, login } from "./support/app";
import { createTestDatabase, type TestDatabase } from "./support/database";
import { atDaysAgo, daysAgo, insertBusiness } from "./support/money-fixtures";
import { insertUser } from "./support/user-fixtures";

let testDb: TestDatabase;
let db: Db;
let app: App;
/** An administrator holding Statistic (32) only. */
let analyst: string;
let superToken: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = testDb.database.db;
  app = await createTestApp(testDb);
  superToken = (await login(app, DEMO.superAdmin)).token;
  analyst = (await createAdmin(app, superToken, [PERMISSION.statistic])).token;
});

afterAll(async () => {
  await app?.close();
  await testDb?.destroy();
});

const statistics = (query: Record<string, string>, token = analyst) =>
  app.inject({
    url: `/v1/api/statistics?${new URLSearchParams(query).toString()}`,
    headers: auth(token),
  });

async function figures(from: string, to: string, granularity = "day"): Promise<Statistics> {
  const response = await statistics({ from, to, granularity });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Statistics>();
}

async function listPage(collection: string, params: Record<string, unknown>, token = superToken) {
  const search = new URLSearchParams(
    Object.entries(params).map(([key, value]): [string, string] => [key, JSON.stringify(value)]),
  );
  const response = await app.inject({
    url: `/v1/api/${collection}/aggregation?${search.toString()}`,
    headers: auth(token),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Record<string, unknown> & { totals?: Record<string, number> }>();
}

/** Every row of a filtered list, page by page: how many, and the sum of `field`. */
async function listSum(collection: string, key: string, filter: object, field: string) {
  let rows = 0;
  let sum = 0;
  for (let page = 1; ; page += 1) {
    const answer = await listPage(collection, { filter, pagination: { page, pageSize: 100 } });
    const items = answer[key] as Array<Record<string, number>>;
    rows += items.length;
    sum += items.reduce((total, item) => total + item[field]!, 0);
    if (items.length < 100) return { rows, sum };
  }
}

describe("GET /api/statistics: buckets and periods", () => {
  it("cuts a range into days, Monday weeks and months, each labelled by its first day inside", () => {
    expect(bucketsOf("2026-01-30", "2026-02-02", "day")).toEqual([
      "2026-01-30",
      "2026-01-31",
      "2026-02-01",
      "2026-02-02",
    ]);
    // 2026-01-28 is a Wednesday: its week is cut; the next starts on Monday 2 February.
    expect(bucketsOf("2026-01-28", "2026-02-10", "week")).toEqual([
      "2026-01-28",
      "2026-02-02",
      "2026-02-09",
    ]);
    expect(bucketsOf("2026-01-15", "2026-03-01", "month")).toEqual([
      "2026-01-15",
      "2026-02-01",
      "2026-03-01",
    ]);
  });

  it("answers each figure with the previous range of the same length, and series that add up", async () => {
    const from = daysAgo(30);
    const to = daysAgo(1);
    const answer = await figures(from, to, "week");
    expect(answer.previousTo).toBe(addDays(from, -1));
    expect(answer.previousFrom).toBe(addDays(from, -30));
    expect(answer.series.map((entry) => entry.bucket)).toEqual(bucketsOf(from, to, "week"));
    for (const figure of ["newUsers", "topUps", "topUpSen", "payments", "paymentSen"] as const) {
      const summed = answer.series.reduce((total, entry) => total + entry[figure], 0);
      expect(summed, figure).toBe(answer.totals[figure].current);
    }
    // The demo campus has 90 days of money: both periods hold some.
    expect(answer.totals.topUps.current).toBeGreaterThan(0);
    expect(answer.totals.topUps.previous).toBeGreaterThan(0);
    expect(answer.totals.payments.current).toBeGreaterThan(0);
    expect(answer.totals.activeUsers.current).toBeGreaterThan(0);
    expect(answer.totals.settlementsPaid.current).toBeGreaterThan(0);
    // Active users of the range are at least those of its busiest bucket, at most their sum.
    const active = answer.series.map((entry) => entry.activeUsers);
    expect(answer.totals.activeUsers.current).toBeGreaterThanOrEqual(Math.max(...active));
    expect(answer.totals.activeUsers.current).toBeLessThanOrEqual(active.reduce((a, b) => a + b));
    const byRole = Object.values(answer.newUsersByRole).reduce((t, f) => t + f.current, 0);
    expect(byRole).toBe(answer.totals.newUsers.current);
    const byChannel = Object.values(answer.topUpsByChannel).reduce((t, f) => t + f.sen.current, 0);
    expect(byChannel).toBe(answer.totals.topUpSen.current);
    const grosses = answer.topMerchants.map((merchant) => merchant.grossSen);
    expect(grosses).toEqual([...grosses].sort((a, b) => b - a));
    expect(grosses.length).toBeGreaterThan(0);
  });

  it("counts a new user, a top-up, a payment and a refund of today in today's bucket", async () => {
    const today = daysAgo(0);
    const before = await figures(today, today);
    const user = await insertUser(db, { role: "staff", approvalStatus: "approved" });
    await db.insert(wallets).values({ userId: user.id });
    const business = await insertBusiness(db);
    await db.transaction((tx) =>
      topUpWallet(tx, { userId: user.id }, { amountSen: 5_000, channel: "card" }),
    );
    const payment = await db.transaction((tx) =>
      payFromWallet(tx, { userId: user.id, businessId: business.id, amountSen: 1_200 }),
    );
    await db.transaction((tx) => refundPayment(tx, payment.id, { amountSen: 200 }));
    // Yesterday's top-up is the previous period's.
    await db.transaction((tx) =>
      topUpWallet(tx, { userId: user.id }, { amountSen: 700, channel: "fpx", at: atDaysAgo(1) }),
    );
    const after = await figures(today, today);
    const delta = (figure: keyof Statistics["totals"]) =>
      after.totals[figure].current - before.totals[figure].current;
    // The user and the business's owner (insertBusiness makes one).
    expect(delta("newUsers")).toBe(2);
    expect(after.newUsersByRole.staff.current - before.newUsersByRole.staff.current).toBe(1);
    expect(delta("topUps")).toBe(1);
    expect(delta("topUpSen")).toBe(5_000);
    expect(after.topUpsByChannel.card.sen.current - before.topUpsByChannel.card.sen.current).toBe(
      5_000,
    );
    expect(delta("payments")).toBe(1);
    expect(delta("paymentSen")).toBe(1_200);
    expect(delta("refunds")).toBe(1);
    expect(delta("refundSen")).toBe(200);
    expect(delta("activeUsers")).toBe(1);
    expect(after.totals.topUpSen.previous - before.totals.topUpSen.previous).toBe(700);
    // The new business takes its place in the ranking: listed with its 1,200 sen, or left out
    // only because ten merchants of the demo campus took more today.
    const ranked = after.topMerchants.find((merchant) => merchant.businessId === business.id);
    const least = Math.min(...after.topMerchants.map((merchant) => merchant.grossSen));
    if (ranked) expect(ranked.grossSen).toBe(1_200);
    else expect([after.topMerchants.length, least >= 1_200]).toEqual([TOP_MERCHANTS, true]);
  });
});

describe("GET /api/statistics: agreement with the lists", () => {
  it("equals, for random ranges, the filtered totals of the top-up, summary and settlement lists", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 95 }),
        fc.integer({ min: 0, max: 40 }),
        fc.constantFrom("day", "week", "month"),
        async (endAgo, length, granularity) => {
          const to = daysAgo(endAgo);
          const from = addDays(to, -length);
          const answer = await figures(from, to, granularity);
          const range = { $gte: from, $lte: to };
          const topUps = await listSum(
            "top-up-transactions",
            "topUpTransactions",
            { status: "success", createdAt: range },
            "amountSen",
          );
          expect(answer.totals.topUps.current).toBe(topUps.rows);
          expect(answer.totals.topUpSen.current).toBe(topUps.sum);
          const summary = await listPage("merchant-transaction-summary", {
            filter: { day: range },
            pagination: { page: 1, pageSize: 1 },
          });
          expect(answer.totals.payments.current).toBe(summary.totals!.paymentCount);
          expect(answer.totals.paymentSen.current).toBe(summary.totals!.grossSen);
          expect(answer.totals.refunds.current).toBe(summary.totals!.refundCount);
          expect(answer.totals.refundSen.current).toBe(summary.totals!.refundSen);
          const paid = await listSum(
            "settlements",
            "settlements",
            { status: "paid", paidAt: range },
            "netSen",
          );
          expect(answer.totals.settlementsPaid.current).toBe(paid.rows);
          expect(answer.totals.settlementSen.current).toBe(paid.sum);
        },
      ),
      { numRuns: 6, seed: 20_261_125 },
    );
  });
});

describe("GET /api/statistics: bad input and permission", () => {
  it.each([
    [{ from: "2026-03-10", to: "2026-03-09", granularity: "day" }, "RANGE_REVERSED", "to"],
    [{ from: "2023-01-01", to: "2026-01-01", granularity: "month" }, "RANGE_TOO_LONG", "3 years"],
    [{ from: "yesterday", to: "2026-03-09", granularity: "day" }, "VALIDATION_ERROR", "from"],
    [{ from: "2026-02-30", to: "2026-03-09", granularity: "day" }, "VALIDATION_ERROR", "from"],
    [{ from: "0000-01-01", to: "0000-01-02", granularity: "day" }, "VALIDATION_ERROR", "from"],
    [{ from: "9999-12-30", to: "9999-12-31", granularity: "day" }, "VALIDATION_ERROR", "from"],
    [{ from: "2026-03-01", to: "2026-03-09\u0000", granularity: "day" }, "VALIDATION_ERROR", "to"],
    [{ from: "2026-03-01", to: "2026-03-09", granularity: "hour" }, "VALIDATION_ERROR", "day"],
    [{ from: "2026-03-01", to: "2026-03-09" }, "VALIDATION_ERROR", "granularity"],
    [{ from: "2026-03-01", to: "2026-03-09", granularity: "day", x: "1" }, "VALIDATION_ERROR", "x"],
  ])("400 for %j", async (query, code, named) => {
    const response = await statistics(query as Record<string, string>);
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json<{ code: string; message: string }>();
    expect(body.code).toBe(code);
    expect(body.message).toContain(named);
  });

  it("takes a range of just under 3 years", async () => {
    const response = await statistics({
      from: "2023-01-01",
      to: "2025-12-31",
      granularity: "month",
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<Statistics>().series).toHaveLength(36);
  });

  it("403 without Statistic (32)", async () => {
    const finance = (await login(app, DEMO.finance)).token;
    const response = await statistics(
      { from: daysAgo(7), to: daysAgo(0), granularity: "day" },
      finance,
    );
    expect(response.statusCode).toBe(403);
    expect(response.json<{ message: string }>().message).toBe(
      "You have no permission to access GET Statistics",
    );
  });
});

describe("the ledger's roll-ups (top_up_days, active_user_days)", () => {
  /** What the roll-ups hold: non-empty top-up rows, and each day's active users by shard. */
  const snapshot = async (source: Db | Tx) => ({
    topUps: (
      await source.execute(sql`
        select day::text, channel, shard, top_ups, top_up_sen::text from top_up_days
        where top_ups <> 0 or top_up_sen <> 0 order by 1, 2, 3`)
    ).rows,
    active: (
      await source.execute(sql`
        select day::text, shard, users::text from active_user_days order by 1, 2`)
    ).rows,
  });

  it("kept in each top-up, payment, refund and reversal's transaction, equal a rebuild from the ledger", async () => {
    const payer = await insertUser(db, { role: "student", approvalStatus: "approved" });
    await db.insert(wallets).values({ userId: payer.id });
    const business = await insertBusiness(db);
    const topUps: Awaited<ReturnType<typeof topUpWallet>>[] = [];
    for (const [channel, amountSen, days] of [
      ["card", 3_000, 0],
      ["fpx", 2_000, 0],
      ["counter", 1_500, 2],
    ] as const) {
      topUps.push(
        await db.transaction((tx) =>
          topUpWallet(tx, { userId: payer.id }, { amountSen, channel, at: atDaysAgo(days) }),
        ),
      );
    }
    const payment = await db.transaction((tx) =>
      payFromWallet(tx, { userId: payer.id, businessId: business.id, amountSen: 900 }),
    );
    await db.transaction((tx) => refundPayment(tx, payment.id, { amountSen: 900 }));
    await db.transaction((tx) =>
      reverseTopUp(tx, topUps[1]!, { adminId: 1, remark: "Entered twice" }),
    );

    const kept = await snapshot(db);
    let rebuilt: Awaited<ReturnType<typeof snapshot>> | undefined;
    await db
      .transaction(async (tx) => {
        await rebuildLedgerRollups(tx);
        rebuilt = await snapshot(tx);
        tx.rollback();
      })
      .catch(() => undefined);
    expect(rebuilt).toBeDefined();
    expect(kept).toEqual(rebuilt);
    // The payer was active today and two days ago: their bit is set on those days only.
    const shard = payer.id % LEDGER_SHARDS;
    const bit = Math.floor(payer.id / LEDGER_SHARDS);
    const activeOn = await db.execute<{ day: string }>(sql`
      select day::text as day from active_user_days
      where shard = ${shard}::int
        and case when length(users) > ${bit}::int then get_bit(users, ${bit}::int) = 1 end
      order by 1`);
    expect(activeOn.rows.map((row) => row.day)).toEqual([daysAgo(2), daysAgo(0)]);
  });
});

describe("closed days", () => {
  /** When today's business day began. */
  const todayStart = async () =>
    new Date(
      (await db.execute<{ at: string }>(sql`select (${businessDayStart(daysAgo(0))})::text as at`))
        .rows[0]!.at,
    );
  /**
   * Closes the days as the job would now, or an hour into today if it is earlier: before one
   * o'clock yesterday is not closed yet, and the suite may run at any time of day.
   */
  const closeThroughYesterday = async () =>
    closeDays(
      db,
      new Date(Math.max(Date.now(), (await todayStart()).getTime() + CLOSE_GRACE_MS + 1000)),
    );
  const closedThrough = async () =>
    (await db.execute<{ day: string | null }>(sql`select max(day)::text as day from closed_days`))
      .rows[0]!.day;
  /** The 90-day figures by day, week and month, and the dashboard's trend, as the API gives them. */
  async function everything() {
    const to = daysAgo(0);
    const from = addDays(to, -89);
    const dashboard = await app.inject({
      url: "/v1/api/dashboard/summary",
      headers: auth(superToken),
    });
    expect(dashboard.statusCode).toBe(200);
    return {
      day: await figures(from, to, "day"),
      week: await figures(from, to, "week"),
      month: await figures(addDays(to, -400), to, "month"),
      trend: dashboard.json<{ trend: unknown }>().trend,
    };
  }

  it("answers from closed days what the live roll-ups answer, and closes yesterday an hour after midnight", async () => {
    await closeThroughYesterday();
    expect(await closedThrough()).toBe(daysAgo(1));
    const closed = await everything();
    expect(closed.day.totals.topUps.current).toBeGreaterThan(0);
    expect(closed.day.topMerchants.length).toBeGreaterThan(0);
    await reopenDays(db);
    expect(await closedThrough()).toBeNull();
    expect(await everything()).toEqual(closed);
    // Half an hour into today, yesterday is not closed yet; the day before is.
    await closeDays(db, new Date((await todayStart()).getTime() + CLOSE_GRACE_MS / 2));
    expect(await closedThrough()).toBe(daysAgo(2));
    expect(await everything()).toEqual(closed);
    await closeThroughYesterday();
    expect(await closedThrough()).toBe(daysAgo(1));
    expect(await everything()).toEqual(closed);
  });

  it("counts as active users exactly the distinct users of the ledger's top-ups and payments", async () => {
    const to = daysAgo(0);
    const from = addDays(to, -20);
    const distinctUsers = async (first: string, last: string) =>
      (
        await db.execute<{ n: number }>(sql`
          select count(distinct user_id)::int as n from wallet_transactions
          where type in ('top_up', 'payment') and status in ('success', 'reversed')
            and created_at >= ${businessDayStart(first)}
            and created_at < ${businessDayStart(addDays(last, 1))}`)
      ).rows[0]!.n;
    await closeThroughYesterday();
    const closed = await figures(from, to, "week");
    expect(closed.totals.activeUsers).toEqual({
      current: await distinctUsers(from, to),
      previous: await distinctUsers(addDays(from, -21), addDays(from, -1)),
    });
    expect(closed.totals.activeUsers.current).toBeGreaterThan(0);
    const yesterday = (await figures(daysAgo(1), daysAgo(1))).totals.activeUsers.current;
    expect(yesterday).toBe(await distinctUsers(daysAgo(1), daysAgo(1)));
    await reopenDays(db);
    expect(await figures(from, to, "week")).toEqual(closed);
    await closeThroughYesterday();
  });

  it("reopens a closed day and the days after it when one of its top-ups is reversed", async () => {
    await closeThroughYesterday();
    const day = daysAgo(5);
    const [topUp] = (
      await db.execute<{ id: number; user_id: number; amount_sen: number; reference: string }>(sql`
        select t.id, t.user_id, t.amount_sen, t.reference
        from wallet_transactions t join wallets w on w.user_id = t.user_id
        where t.type = 'top_up' and t.status = 'success' and w.balance_sen >= t.amount_sen
          and t.created_at >= ${businessDayStart(day)}
          and t.created_at < ${businessDayStart(daysAgo(4))}
        limit 1`)
    ).rows;
    expect(topUp).toBeDefined();
    const before = await figures(day, day);
    await db.transaction((tx) =>
      reverseTopUp(
        tx,
        {
          id: topUp!.id,
          userId: topUp!.user_id,
          amountSen: Number(topUp!.amount_sen),
          reference: topUp!.reference,
        },
        { adminId: 1, remark: "Entered twice" },
      ),
    );
    expect(await closedThrough()).toBe(daysAgo(6));
    const after = await figures(day, day);
    expect(after.totals.topUps.current).toBe(before.totals.topUps.current - 1);
    expect(after.totals.topUpSen.current).toBe(
      before.totals.topUpSen.current - Number(topUp!.amount_sen),
    );
    // The user stays active that day.
    expect(after.totals.activeUsers).toEqual(before.totals.activeUsers);
    await closeThroughYesterday();
    expect(await closedThrough()).toBe(daysAgo(1));
    expect(await figures(day, day)).toEqual(after);
  });
});
