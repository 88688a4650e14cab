/**
 * The dashboard's figures (server/routes/dashboard.ts), in one statement: each queue's condition,
 * keyed as in src/shared/dashboard-queues.ts, counted; the last 14 business days' top-ups and
 * payments, closed days compacted and today live (server/db/closed-days.ts).
 */
import { sql, type SQL } from "drizzle-orm";

import { DASHBOARD_QUEUES, type DashboardQueueKey } from "../../src/shared/dashboard-queues";
import { APPROVAL_STATUSES } from "../../src/shared/domain";
import { holdsPermission, PERMISSION } from "../../src/shared/permissions";
import type { DashboardSummary } from "../../src/shared/schemas/dashboard";
import { addDays, businessDayOf } from "../business-day";
import type { Db } from "../db";
import { figuresOfDays, type DayFigure } from "../db/closed-days";
import { executePrepared } from "../db/prepared";
import {
  administrators,
  businesses,
  businessUpdateRequests,
  changeContactSubmissions,
  riderVerificationCounts,
  userApprovalCounts,
  userReports,
} from "../db/schema";

/** What each queue counts: the rows waiting for a decision. */
const QUEUE_ROWS: Record<DashboardQueueKey, SQL> = {
  // Kept by triggers on users (migration 0020).
  approvals: sql`select coalesce(sum(${userApprovalCounts.n}), 0) from ${userApprovalCounts}
                 where ${userApprovalCounts.approvalStatus} = 'pending'`,
  changeContact: sql`select count(*) from ${changeContactSubmissions}
                     where ${changeContactSubmissions.status} = 'pending'`,
  // Kept by triggers on riders (migration 0026).
  riderVerifications: sql`select coalesce(sum(${riderVerificationCounts.n}), 0)
                          from ${riderVerificationCounts}
                          where ${riderVerificationCounts.verificationStatus} = 'pending'`,
  businessApprovals: sql`select count(*) from ${businesses} where ${businesses.status} = 'pending'`,
  businessUpdates: sql`select count(*) from ${businessUpdateRequests}
                       where ${businessUpdateRequests.status} = 'pending'`,
  userReports: sql`select count(*) from ${userReports} where ${userReports.status} = 'open'`,
  redDays: sql`select count(*) from reconciliation_days
               where status = 'failed' and investigated_at is null`,
};

/** Counts of a table's rows, as a JSON object: each key's condition counted. */
const countsOf = (table: SQL, conditions: Record<string, SQL | true>) => sql`(
  select json_build_object(${sql.join(
    Object.entries(conditions).map(([key, condition]) =>
      condition === true
        ? sql`${key}::text, count(*)::int`
        : sql`${key}::text, (count(*) filter (where ${condition}))::int`,
    ),
    sql`, `,
  )}) from ${table})`;

/**
 * The dashboard's figures that `admin` may see, in one statement (one round trip: on the embedded
 * store, where statements queue for its one connection, each costs): administrators by status,
 * users by approval status (kept by triggers on users, migration 0020), the pending queues,
 * businesses by status, and the money trend (`money`: which of its figures, if any).
 */
export async function dashboardFigures(
  db: Db,
  admin: Parameters<typeof holdsPermission>[0],
  money: { topUps: boolean; payments: boolean },
  now: Date = new Date(),
): Promise<
  Pick<DashboardSummary, "administrators" | "users" | "pending" | "businesses" | "trend">
> {
  const blocks: Array<[string, SQL]> = [];
  if (holdsPermission(admin, PERMISSION.admin)) {
    const { status } = administrators;
    blocks.push([
      "administrators",
      countsOf(sql`${administrators}`, {
        total: true,
        ...Object.fromEntries(
          (["active", "disabled", "banned"] as const).map((value) => [
            value,
            sql`${status} = ${value}`,
          ]),
        ),
      }),
    ]);
  }
  if (holdsPermission(admin, PERMISSION.user)) {
    const { approvalStatus, n } = userApprovalCounts;
    blocks.push([
      "users",
      sql`(select json_build_object('total', coalesce(sum(${n}), 0)::int, ${sql.join(
        APPROVAL_STATUSES.map(
          (value) =>
            sql`${value}::text, coalesce(sum(${n}) filter (where ${approvalStatus} = ${value}), 0)::int`,
        ),
        sql`, `,
      )}) from ${userApprovalCounts})`,
    ]);
  }
  const queues = DASHBOARD_QUEUES.filter((queue) => holdsPermission(admin, queue.permission));
  if (queues.length > 0) {
    blocks.push([
      "pending",
      sql`json_build_object(${sql.join(
        queues.map((queue) => sql`${queue.key}::text, (${QUEUE_ROWS[queue.key]})::int`),
        sql`, `,
      )})`,
    ]);
  }
  if (holdsPermission(admin, PERMISSION.business)) {
    const { status } = businesses;
    blocks.push([
      "businesses",
      countsOf(sql`${businesses}`, {
        approved: sql`${status} = 'approved'`,
        suspended: sql`${status} = 'suspended'`,
      }),
    ]);
  }
  const trend = money.topUps || money.payments ? trendDays(now) : undefined;
  if (trend) {
    blocks.push([
      "trend",
      sql`(select coalesce(json_agg(t), '[]'::json) from (
        select day::text as day, figure, sum(n)::int as n, coalesce(sum(sen), 0)::bigint as sen
        from (${figuresOfDays(trend.first, trend.today)}) f
        where figure in ('top_up', 'payment')
        group by 1, 2) t)`,
    ]);
  }
  if (blocks.length === 0) return {};
  const { rows } = await executePrepared<Record<string, unknown>>(
    db,
    sql`select ${sql.join(
      blocks.map(([name, value]) => sql`${value} as ${sql.identifier(name)}`),
      sql`, `,
    )}`,
  );
  const { trend: trendRows, ...counts } = rows[0] ?? {};
  return {
    ...counts,
    ...(trend && { trend: trend.fill(trendRows as TrendRow[], money) }),
  };
}

const TREND_DAYS = 14;

interface TrendDay {
  day: string;
  topUps?: number;
  topUpSen?: number;
  payments?: number;
  paymentSen?: number;
}

interface TrendRow {
  day: string;
  figure: DayFigure;
  n: number;
  sen: number;
}

/**
 * The last TREND_DAYS business days up to `now`'s, and the trend they make from the statement's
 * rows, oldest first, today last: successful top-ups when `topUps`, payments (succeeded, refunded
 * since included) when `payments`.
 */
function trendDays(now: Date) {
  const today = businessDayOf(now);
  const first = addDays(today, 1 - TREND_DAYS);
  return {
    first,
    today,
    fill(rows: TrendRow[], wanted: { topUps: boolean; payments: boolean }): TrendDay[] {
      const days: TrendDay[] = Array.from({ length: TREND_DAYS }, (_, index) => ({
        day: addDays(first, index),
        ...(wanted.topUps ? { topUps: 0, topUpSen: 0 } : {}),
        ...(wanted.payments ? { payments: 0, paymentSen: 0 } : {}),
      }));
      const byDay = new Map(days.map((entry) => [entry.day, entry]));
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
    },
  };
}
