/**
 * Statistic (32): the campus's figures over a range of business days (BUSINESS_TIMEZONE), in
 * buckets of a day, a week (from Monday) or a calendar month, each against the previous range of
 * the same length. Payments, refunds and the top merchants read the merchant summary's roll-up
 * (merchant_days); top-ups and active users the ledger's roll-ups (top_up_days and the per-day
 * bit strings of active_user_days, server/db/ledger-rollups.ts); new users and paid settlements
 * their own tables. One query per source covers both periods: a row of the previous period has
 * no bucket.
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
import { businessDayStart, businessTimeZone } from "../business-day";
import type { DbOrTx } from "../db";
import { HttpError } from "../errors";

const DAY_MS = 86_400_000;
/** How many merchants the top list names. */
export const TOP_MERCHANTS = 10;

const toDate = (day: string) => new Date(`${day}T00:00:00Z`);
const dayOf = (date: Date) => date.toISOString().slice(0, 10);
export const addDays = (day: string, days: number) =>
  dayOf(new Date(toDate(day).getTime() + days * DAY_MS));

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

/** Every bucket of the range, by its first day inside the range. */
export function bucketsOf(from: string, to: string, granularity: StatisticsGranularity): string[] {
  const buckets: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const start = bucketStart(day, granularity);
    const label = start < from ? from : start;
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
  const days = Math.round((toDate(to).getTime() - toDate(from).getTime()) / DAY_MS) + 1;
  return { from, to, previousFrom: addDays(from, -days), previousTo: addDays(from, -1) };
}

type Row = Record<string, unknown> & { bucket: string | null };

const num = (value: unknown) => Number(value ?? 0);

export async function statisticsOf(db: DbOrTx, query: StatisticsQuery): Promise<Statistics> {
  checkRange(query);
  const periods = periodsOf(query);
  const { from, to, previousFrom } = periods;
  const { granularity } = query;
  const zone = businessTimeZone();
  const previousStart = businessDayStart(previousFrom);
  const end = businessDayStart(addDays(to, 1));
  /** The bucket of a business day (SQL date), null in the previous period. */
  const bucket = (day: SQL) =>
    sql`case when ${day} >= ${from}::date
          then greatest(date_trunc(${granularity}, ${day}::timestamp)::date, ${from}::date)::text
        end`;
  const businessDay = (column: SQL) => sql`(${column} at time zone ${zone})::date`;
  /** Rows of a roll-up's business days in both periods. */
  const inDays = sql`day >= ${previousFrom}::date and day <= ${to}::date`;
  /** Rows of a timestamp column in both periods. */
  const inBoth = (column: SQL) => sql`${column} >= ${previousStart} and ${column} < ${end}`;
  const rows = async <T extends Row>(query: SQL) => (await db.execute<T>(query)).rows;

  const [users, topUps, active, merchants, settled, top] = await Promise.all([
    rows<Row & { role: UserRole; n: number }>(sql`
      select ${bucket(businessDay(sql`created_at`))} as bucket, role, count(*)::int as n
      from users where ${inBoth(sql`created_at`)} group by 1, 2`),
    rows<Row & { channel: LedgerChannel | null; n: number; sen: string }>(sql`
      select ${bucket(sql`day`)} as bucket, nullif(channel, '') as channel,
             sum(top_ups)::int as n, coalesce(sum(top_up_sen), 0) as sen
      from top_up_days where ${inDays}
      group by 1, 2`),
    // Distinct users per bucket and per period: each shard's day strings, grown with 0s to the
    // shard's longest, OR-ed per bucket (grouping (bucket, shard)) and per period (grouping
    // (current, shard)), their 1s counted and summed over the shards.
    rows<Row & { current: boolean | null; n: number; by_bucket: boolean }>(sql`
      with days as (
        select ${bucket(sql`day`)} as bucket, day >= ${from}::date as current, shard, users
        from active_user_days where ${inDays}
      ), widths as (select shard, max(length(users)) as width from days group by shard),
      grown as (
        select d.bucket, d.current, d.shard,
               d.users || repeat('0', w.width - length(d.users))::bit varying as users
        from days d join widths w using (shard)
      ), per_shard as (
        select bucket, current, bit_count(bit_or(users)) as n, grouping(bucket) = 0 as by_bucket
        from grown group by grouping sets ((bucket, shard), (current, shard))
      )
      select bucket, current, sum(n)::int as n, by_bucket
      from per_shard group by bucket, current, by_bucket`),
    rows<Row & { payments: number; gross: string; refunds: number; refunded: string }>(sql`
      select ${bucket(sql`day`)} as bucket, sum(payment_count)::int as payments,
             coalesce(sum(gross_sen), 0) as gross, sum(refund_count)::int as refunds,
             coalesce(sum(refund_sen), 0) as refunded
      from merchant_days where ${inDays}
      group by 1`),
    rows<Row & { n: number; sen: string }>(sql`
      select ${bucket(businessDay(sql`paid_at`))} as bucket, count(*)::int as n,
             coalesce(sum(net_sen), 0) as sen
      from settlements where status = 'paid' and ${inBoth(sql`paid_at`)}
      group by 1`),
    rows<{
      bucket: null;
      business_id: number;
      name: string;
      payments: number;
      gross: string;
      previous: string;
    }>(sql`
      select m.business_id, b.name,
             (sum(m.payment_count) filter (where m.day >= ${from}::date))::int as payments,
             coalesce(sum(m.gross_sen) filter (where m.day >= ${from}::date), 0) as gross,
             coalesce(sum(m.gross_sen) filter (where m.day < ${from}::date), 0) as previous
      from merchant_days m join businesses b on b.id = m.business_id
      where m.day >= ${previousFrom}::date and m.day <= ${to}::date
      group by m.business_id, b.name
      having sum(m.gross_sen) filter (where m.day >= ${from}::date) > 0
      order by gross desc, m.business_id
      limit ${TOP_MERCHANTS}`),
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
  const target = (label: string | null) => {
    if (label === null) return previous;
    const found = byLabel.get(label);
    if (!found) throw new Error(`Statistics: bucket ${label} outside ${from}..${to}`);
    return found;
  };

  for (const row of users) {
    const entry = target(row.bucket);
    entry.newUsersByRole[row.role] += row.n;
    entry.newUsers += row.n;
  }
  for (const row of topUps) {
    const entry = target(row.bucket);
    const channel = row.channel ? entry.topUpsByChannel[row.channel] : undefined;
    if (channel) {
      channel.count += row.n;
      channel.sen += num(row.sen);
    }
    entry.topUps += row.n;
    entry.topUpSen += num(row.sen);
  }
  const activeTotals = { current: 0, previous: 0 };
  for (const row of active) {
    if (row.by_bucket) {
      if (row.bucket !== null) target(row.bucket).activeUsers = row.n;
    } else {
      activeTotals[row.current ? "current" : "previous"] = row.n;
    }
  }
  for (const row of merchants) {
    const entry = target(row.bucket);
    entry.payments += num(row.payments);
    entry.paymentSen += num(row.gross);
    entry.refunds += num(row.refunds);
    entry.refundSen += num(row.refunded);
  }
  for (const row of settled) {
    const entry = target(row.bucket);
    entry.settlementsPaid += row.n;
    entry.settlementSen += num(row.sen);
  }

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
    topMerchants: top.map((row) => ({
      businessId: row.business_id,
      businessName: row.name,
      paymentCount: num(row.payments),
      grossSen: num(row.gross),
      previousGrossSen: num(row.previous),
    })),
    series,
  };
}
