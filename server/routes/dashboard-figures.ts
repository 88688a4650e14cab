/**
 * The dashboard's queues and its money trend (server/routes/dashboard.ts): each queue's
 * condition, keyed as in src/shared/dashboard-queues.ts, counted in one statement; the last 14
 * business days' top-ups and payments, closed days compacted and today live
 * (server/db/closed-days.ts).
 */
import { sql, type SQL } from "drizzle-orm";

import type { DashboardQueue, DashboardQueueKey } from "../../src/shared/dashboard-queues";
import { businessDayOf } from "../business-day";
import type { Db } from "../db";
import { closedThroughOf, figuresOfDays, type DayFigure } from "../db/closed-days";
import {
  businesses,
  businessUpdateRequests,
  changeContactSubmissions,
  riders,
  userReports,
  users,
} from "../db/schema";
import { addDays } from "../services/statistics";

/** What each queue counts: the rows waiting for a decision. */
const QUEUE_ROWS: Record<DashboardQueueKey, SQL> = {
  approvals: sql`select count(*) from ${users} where ${users.approvalStatus} = 'pending'`,
  changeContact: sql`select count(*) from ${changeContactSubmissions}
                     where ${changeContactSubmissions.status} = 'pending'`,
  riderVerifications: sql`select count(*) from ${riders}
                          where ${riders.verificationStatus} = 'pending'`,
  businessApprovals: sql`select count(*) from ${businesses} where ${businesses.status} = 'pending'`,
  businessUpdates: sql`select count(*) from ${businessUpdateRequests}
                       where ${businessUpdateRequests.status} = 'pending'`,
  userReports: sql`select count(*) from ${userReports} where ${userReports.status} = 'open'`,
};

/** The given queues' counts, in one round trip. */
export async function queueCounts(
  db: Db,
  queues: ReadonlyArray<DashboardQueue & { key: DashboardQueueKey }>,
): Promise<Partial<Record<DashboardQueueKey, number>>> {
  const columns = sql.join(
    queues.map((queue) => sql`(${QUEUE_ROWS[queue.key]})::int as ${sql.identifier(queue.key)}`),
    sql`, `,
  );
  const { rows } = await db.execute<Record<DashboardQueueKey, number>>(sql`select ${columns}`);
  return rows[0] ?? {};
}

export const TREND_DAYS = 14;

export interface TrendDay {
  day: string;
  topUps?: number;
  topUpSen?: number;
  payments?: number;
  paymentSen?: number;
}

/**
 * The last TREND_DAYS business days, oldest first, today last: successful top-ups when
 * `topUps`, payments (succeeded, refunded since included) when `payments`.
 */
export async function moneyTrend(
  db: Db,
  wanted: { topUps: boolean; payments: boolean },
  now: Date = new Date(),
): Promise<TrendDay[]> {
  const today = businessDayOf(now);
  const first = addDays(today, 1 - TREND_DAYS);
  const days: TrendDay[] = Array.from({ length: TREND_DAYS }, (_, index) => ({
    day: addDays(first, index),
    ...(wanted.topUps ? { topUps: 0, topUpSen: 0 } : {}),
    ...(wanted.payments ? { payments: 0, paymentSen: 0 } : {}),
  }));
  const byDay = new Map(days.map((entry) => [entry.day, entry]));
  const { rows } = await db.execute<{ day: string; figure: DayFigure; n: number; sen: string }>(sql`
    select day::text as day, figure, sum(n)::int as n, coalesce(sum(sen), 0) as sen
    from (${figuresOfDays(first, today, await closedThroughOf(db))}) f
    where figure in ('top_up', 'payment')
    group by 1, 2`);
  for (const row of rows) {
    const entry = byDay.get(row.day);
    if (!entry) continue;
    if (row.figure === "top_up" && wanted.topUps) {
      Object.assign(entry, { topUps: row.n, topUpSen: Number(row.sen) });
    }
    if (row.figure === "payment" && wanted.payments) {
      Object.assign(entry, { payments: row.n, paymentSen: Number(row.sen) });
    }
  }
  return days;
}
