/**
 * Statistic (32): the campus's figures over a range of business days (BUSINESS_TIMEZONE), in
 * buckets of a day, a week (from Monday) or a calendar month, each against the previous range of
 * the same length. Closed days (every day before today, once closed) are read from their
 * compacted rows (kept in memory once read), the others from the live roll-ups
 * (server/db/closed-days.ts `daysOf`): each day's figures are added into its bucket here (a day of
 * the previous period into the previous totals), distinct active users by OR-ing each day's bits,
 * the top merchants from running totals.
 *
 * What counts: a top-up that succeeded (`success`; a reversed one gave its money back); a payment
 * that succeeded (`success`, or `reversed`: refunded since) and a refund that succeeded, as the
 * Merchant Transaction Summary counts them; a settlement paid in the range (by its paid time),
 * at its net; an active user made at least one such top-up or payment in the range.
 */
import { sql, type SQL } from "drizzle-orm";

import {
  LEDGER_CHANNELS,
  USER_ROLES,
  type LedgerChannel,
  type UserRole,
} from "../../src/shared/domain";
import {
  STATISTIC_FIGURES,
  STATISTICS_MAX_YEARS,
  type Statistics,
  type StatisticsBucket,
  type StatisticsGranularity,
  type StatisticsQuery,
} from "../../src/shared/schemas/statistics";
import { addDays, daysSpanned } from "../business-day";
import type { DbOrTx } from "../db";
import { executePrepared } from "../db/prepared";
import { daysOf, openFrom, type ActiveDay, type DayFigure } from "../db/closed-days";
import { HttpError } from "../errors";

/** How many merchants the top list names. */
export const TOP_MERCHANTS = 10;

const toDate = (day: string) => new Date(`${day}T00:00:00Z`);
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

function addYears(day: string, years: number): string {
  const date = toDate(day);
  date.setUTCFullYear(date.getUTCFullYear() + years);
  return dayOf(date);
}

/** The first day of the bucket holding `day`: itself, its week's Monday or its month's 1st. */
function bucketStart(day: string, granularity: StatisticsGranularity): string {
  if (granularity === "day") return day;
  if (granularity === "month") return `${day.slice(0, 8)}01`;
  const weekday = (toDate(day).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return addDays(day, -weekday);
}

/** The bucket holding `day` of a range starting `from`: its first day inside the range. */
function bucketLabel(day: string, from: string, granularity: StatisticsGranularity): string {
  const start = bucketStart(day, granularity);
  return start < from ? from : start;
}

/** Every bucket of the range, by its first day inside the range. */
export function bucketsOf(from: string, to: string, granularity: StatisticsGranularity): string[] {
  const buckets: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const label = bucketLabel(day, from, granularity);
    if (buckets.at(-1) !== label) buckets.push(label);
  }
  return buckets;
}

/** The range's checks beyond its shape: 400 with a stable code each. */
export function checkRange({ from, to }: StatisticsQuery): void {
  if (to < from) {
    throw new HttpError(400, "Invalid to: The range ends before it starts", "RANGE_REVERSED");
  }
  if (to >= addYears(from, STATISTICS_MAX_YEARS)) {
    throw new HttpError(
      400,
      `Invalid to: The range is longer than ${STATISTICS_MAX_YEARS} years`,
      "RANGE_TOO_LONG",
      { maxYears: STATISTICS_MAX_YEARS },
    );
  }
}

interface Periods {
  from: string;
  to: string;
  previousFrom: string;
  previousTo: string;
}

export function periodsOf({ from, to }: StatisticsQuery): Periods {
  const days = daysSpanned(from, to);
  return { from, to, previousFrom: addDays(from, -days), previousTo: addDays(from, -1) };
}

/**
 * The businesses with the highest gross in the range, with their gross in the previous period:
 * for closed days the difference of the running totals at the ends of each period (the last
 * closed day on or before each end, three rows of closed_days), for the others the merchant
 * summary's days.
 */
function topMerchants({ from, to, previousFrom }: Periods): SQL {
  const totalsAt = (day: string) => sql`(
    select merchant_payments as p, merchant_gross as g from closed_days
    where day <= ${day}::date order by day desc limit 1)`;
  return sql`
    with per_business as (
      select u.id::int as business_id, coalesce(u.ep, 0) - coalesce(u.sp, 0) as payments,
             coalesce(u.eg, 0) - coalesce(u.sg, 0) as gross,
             coalesce(u.sg, 0) - coalesce(u.pg, 0) as previous
      from (select 1) one
      left join lateral ${totalsAt(to)} e on true
      left join lateral ${totalsAt(addDays(from, -1))} s on true
      left join lateral ${totalsAt(addDays(previousFrom, -1))} p on true
      cross join unnest(e.p, e.g, s.p, s.g, p.g) with ordinality as u(ep, eg, sp, sg, pg, id)
      union all
      select business_id, sum(payment_count) filter (where day >= ${from}::date),
             coalesce(sum(gross_sen) filter (where day >= ${from}::date), 0),
             coalesce(sum(gross_sen) filter (where day < ${from}::date), 0)
      from merchant_days where day >= ${openFrom(previousFrom)} and day <= ${to}::date
      group by business_id)
    select b.id as business_id, b.name, coalesce(sum(x.payments), 0)::int as payments,
           sum(x.gross) as gross, sum(x.previous) as previous
    from per_business x join businesses b on b.id = x.business_id
    group by b.id, b.name
    having sum(x.gross) > 0
    order by gross desc, b.id
    limit ${TOP_MERCHANTS}`;
}

const num = (value: unknown) => Number(value ?? 0);

/**
 * The series fields a money figure of closed_day_figures adds to: its count and its sen (the
 * fees are the merchant summary's, not a statistic).
 */
const MONEY_FIGURES: Record<
  Exclude<DayFigure, "new_user" | "fee">,
  readonly [(typeof STATISTIC_FIGURES)[number], (typeof STATISTIC_FIGURES)[number]]
> = {
  top_up: ["topUps", "topUpSen"],
  payment: ["payments", "paymentSen"],
  refund: ["refunds", "refundSen"],
  settlement: ["settlementsPaid", "settlementSen"],
};

export async function statisticsOf(db: DbOrTx, query: StatisticsQuery): Promise<Statistics> {
  checkRange(query);
  const periods = periodsOf(query);
  const { from, to, previousFrom } = periods;
  const { granularity } = query;

  const [days, top] = await Promise.all([
    daysOf(db, previousFrom, to),
    executePrepared<{
      business_id: number;
      name: string;
      payments: number;
      gross: string;
      previous: string;
    }>(db, topMerchants(periods)),
  ]);
  const emptyBucket = (label: string): StatisticsBucket => ({
    bucket: label,
    ...(Object.fromEntries(STATISTIC_FIGURES.map((figure) => [figure, 0])) as Record<
      (typeof STATISTIC_FIGURES)[number],
      number
    >),
    newUsersByRole: Object.fromEntries(USER_ROLES.map((role) => [role, 0])) as Record<
      UserRole,
      number
    >,
    topUpsByChannel: Object.fromEntries(
      LEDGER_CHANNELS.map((channel) => [channel, { count: 0, sen: 0 }]),
    ) as Record<LedgerChannel, { count: number; sen: number }>,
  });
  const series = bucketsOf(from, to, granularity).map(emptyBucket);
  const byLabel = new Map(series.map((entry) => [entry.bucket, entry]));
  // The previous period is one more bucket, never drawn: its sums are the previous totals.
  const previous = emptyBucket(periods.previousFrom);
  /** The bucket of each business day of the range (the previous period's days have none). */
  const bucketOfDay = new Map<string, StatisticsBucket>();
  for (let day = from; day <= to; day = addDays(day, 1)) {
    bucketOfDay.set(day, byLabel.get(bucketLabel(day, from, granularity))!);
  }
  const target = (day: string) => {
    if (day < from) return previous;
    const found = bucketOfDay.get(day);
    if (!found) throw new Error(`Statistics: day ${day} outside ${from}..${to}`);
    return found;
  };

  for (const row of days.figures) {
    const entry = target(row.day);
    if (row.figure === "new_user") {
      entry.newUsersByRole[row.key as UserRole] += row.n;
      entry.newUsers += row.n;
      continue;
    }
    if (row.figure === "fee") continue;
    const [count, sum] = MONEY_FIGURES[row.figure];
    entry[count] += row.n;
    entry[sum] += row.sen;
    const channel = row.figure === "top_up" && entry.topUpsByChannel[row.key as LedgerChannel];
    if (channel) {
      channel.count += row.n;
      channel.sen += row.sen;
    }
  }
  // Distinct active users: the union of each bucket's days, and of each period's.
  const activeDays = new Map<StatisticsBucket, ActiveDay[]>();
  const periodDays: Record<"current" | "previous", ActiveDay[]> = { current: [], previous: [] };
  const { active } = days;
  for (const [day, activeDay] of active.days) {
    periodDays[day < from ? "previous" : "current"].push(activeDay);
    if (day < from) continue;
    const entry = target(day);
    const days = activeDays.get(entry) ?? [];
    days.push(activeDay);
    activeDays.set(entry, days);
  }
  for (const [entry, days] of activeDays) entry.activeUsers = active.distinct(days);
  const activeTotals = {
    current: active.distinct(periodDays.current),
    previous: active.distinct(periodDays.previous),
  };

  const sumOf = <T>(pick: (entry: StatisticsBucket) => number) =>
    series.reduce((total, entry) => total + pick(entry), 0) as T;
  const compare = (pick: (entry: StatisticsBucket) => number) => ({
    current: sumOf<number>(pick),
    previous: pick(previous),
  });
  const totals = Object.fromEntries(
    STATISTIC_FIGURES.map((figure) => [
      figure,
      figure === "activeUsers" ? activeTotals : compare((entry) => entry[figure]),
    ]),
  ) as Statistics["totals"];

  return {
    ...periods,
    granularity,
    totals,
    newUsersByRole: Object.fromEntries(
      USER_ROLES.map((role) => [role, compare((entry) => entry.newUsersByRole[role])]),
    ) as Statistics["newUsersByRole"],
    topUpsByChannel: Object.fromEntries(
      LEDGER_CHANNELS.map((channel) => [
        channel,
        {
          count: compare((entry) => entry.topUpsByChannel[channel].count),
          sen: compare((entry) => entry.topUpsByChannel[channel].sen),
        },
      ]),
    ) as Statistics["topUpsByChannel"],
    topMerchants: top.rows.map((row) => ({
      businessId: row.business_id,
      businessName: row.name,
      paymentCount: num(row.payments),
      grossSen: num(row.gross),
      previousGrossSen: num(row.previous),
    })),
    series,
  };
}
