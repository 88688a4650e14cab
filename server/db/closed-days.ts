/**
 * Closed business days, compacted: what Statistic and the dashboard read for every day before
 * today instead of the live roll-ups (top_up_days and active_user_days in LEDGER_SHARDS shards,
 * merchant_days per business, the users and settlements tables). A closed day no longer changes;
 * what would change one (reversing an earlier top-up, a seed writing the past) reopens it and
 * the days after it (`reopenDayOf`) until the next closing.
 *
 * - closed_day_figures: a day's counts and sums, one row per figure and key (new users by role,
 *   top-ups by channel, payments, refunds, fees, paid settlements): `dayFigures` below is their only
 *   definition, read live for the days not yet closed and copied when a day closes.
 * - closed_days: one row per closed day, every day from the first with any figure: its active
 *   users as one bit string (bit `user_id`, read and OR-ed by the server, see `daysOf`),
 *   and every business's running payment count and gross up to that day's end (arrays indexed by
 *   business id), so a range's figures per business are two array reads, not a scan of
 *   merchant_days.
 *
 * `closeDays` closes the days up to yesterday that are not yet closed (the scheduled job
 * `closeDaysJob` in server/jobs/close-days.ts runs it; a rebuild re-closes everything). It waits
 * CLOSE_GRACE_MS after a day's end, so no transaction begun on that day is still writing to it.
 */
import { sql, type SQL } from "drizzle-orm";

import { addDays, businessDayOf, businessDayStart, businessTimeZone } from "../business-day";
import type { DbOrTx } from "./index";
import { executePrepared } from "./prepared";
import { LEDGER_SHARDS } from "./ledger-shards";

/** How long after a business day's end it is closed. */
export const CLOSE_GRACE_MS = 3_600_000;
/** The advisory lock that closing days (exclusive) and reopening one (shared) take. */
const CLOSE_LOCK = 0x636c6f73; // "clos"

export type DayFigure = "new_user" | "top_up" | "payment" | "refund" | "fee" | "settlement";

/**
 * Every figure of the business days from `from` (a date, as SQL) to `to` (inclusive,
 * `YYYY-MM-DD`) from the live tables, as rows (day, figure, key, n, sen): new users by role;
 * successful top-ups by channel ('' for none); payments (succeeded, refunded since included),
 * refunds and the payments' fees, from the merchant summary; settlements paid that day, at their
 * net.
 */
export function dayFigures(from: SQL, to: string): SQL {
  const zone = businessTimeZone();
  const start = sql`(${from}::timestamp at time zone ${zone})`;
  const end = businessDayStart(addDays(to, 1));
  const inDays = sql`day >= ${from} and day <= ${to}::date`;
  return sql`
    select (created_at at time zone ${zone})::date as day, 'new_user' as figure, role as key,
           count(*)::int as n, 0::bigint as sen
    from users where created_at >= ${start} and created_at < ${end} group by 1, 3
    union all
    select day, 'top_up', channel, sum(top_ups)::int, sum(top_up_sen)::bigint
    from top_up_days where ${inDays} group by 1, 3
    union all
    select m.day, f.figure, '', f.n, f.sen
    from (select day, sum(payment_count)::int as payments, sum(gross_sen)::bigint as gross,
                 sum(refund_count)::int as refunds, sum(refund_sen)::bigint as refunded,
                 sum(fee_sen)::bigint as fees
          from merchant_days where ${inDays} group by 1) m
    cross join lateral (values ('payment', m.payments, m.gross), ('refund', m.refunds, m.refunded),
                               ('fee', m.payments, m.fees))
      as f(figure, n, sen)
    where f.n > 0 or f.sen <> 0
    union all
    select (paid_at at time zone ${zone})::date, 'settlement', '', count(*)::int, sum(net_sen)::bigint
    from settlements where status = 'paid' and paid_at >= ${start} and paid_at < ${end} group by 1`;
}

/**
 * The first day from `from` (`YYYY-MM-DD`) that is not closed, as SQL: a query reads closed days
 * before it and the live roll-ups from it, in one snapshot.
 */
export const openFrom = (from: string): SQL =>
  sql`greatest(${from}::date, (select max(day) from closed_days) + 1)`;

/** Every figure of the days `from`..`to`: closed days from closed_day_figures, the others live. */
export const figuresOfDays = (from: string, to: string): SQL => sql`
  select day, figure, key, n, sen from closed_day_figures
  where day >= ${from}::date and day <= ${to}::date
  union all ${dayFigures(openFrom(from), to)}`;

// ---- Active users: bit `user_id` set when the user was active that day ----

/**
 * A set of user ids as bits: bit `id % 32` of word `id >> 5`. Stored as the words' bytes in the
 * platform's order (little-endian on every platform Node runs this on): bit `id % 8` of byte
 * `id >> 3`.
 */
export type UserBits = Uint32Array;

/** The ids of a stored string of bits (its bytes copied, whole words). */
export function bitsOfBytes(bytes: Uint8Array): UserBits {
  const words = new Uint32Array(Math.ceil(bytes.length / 4));
  new Uint8Array(words.buffer).set(bytes);
  return words;
}

/** How many ids a set holds. */
export function countBits(bits: UserBits): number {
  let count = 0;
  for (let index = 0; index < bits.length; index++) {
    let word = bits[index]!;
    word -= (word >>> 1) & 0x55555555;
    word = (word & 0x33333333) + ((word >>> 2) & 0x33333333);
    count += Math.imul((word + (word >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
  }
  return count;
}

/** The union of sets, in a new one. */
export function unionOf(sets: readonly UserBits[]): UserBits {
  const union = new Uint32Array(Math.max(0, ...sets.map((bits) => bits.length)));
  for (const bits of sets)
    for (let index = 0; index < bits.length; index++) union[index]! |= bits[index]!;
  return union;
}

/**
 * A day's shard strings (as `varbit_send` sends them: a 4-byte length, then the bits from the
 * first, high bit first) set into one string of user ids: bit b of shard s is user b × shards + s.
 */
export function bitsOfShards(
  shards: ReadonlyArray<{ shard: number; users: Uint8Array }>,
): UserBits {
  // The highest user a shard's string can hold is (length - 1) × shards + shard.
  const longest = Math.max(0, ...shards.map(({ users }) => (users.length - 4) * 8));
  const bits: UserBits = new Uint32Array(Math.ceil((longest * LEDGER_SHARDS) / 32));
  for (const { shard, users } of shards) {
    for (let index = 4; index < users.length; index++) {
      const byte = users[index]!;
      if (byte === 0) continue;
      for (let bit = 0; bit < 8; bit++) {
        if ((byte & (0x80 >> bit)) === 0) continue;
        const user = ((index - 4) * 8 + bit) * LEDGER_SHARDS + shard;
        bits[user >>> 5]! |= 1 << (user & 31);
      }
    }
  }
  return trimmed(bits);
}

/** A set without its trailing words of 0s. */
function trimmed(bits: UserBits): UserBits {
  let length = bits.length;
  while (length > 0 && bits[length - 1] === 0) length--;
  return length === bits.length ? bits : bits.slice(0, length);
}

/** A day's active users, with the version of its closed_days row when the day is closed. */
export interface ActiveDay {
  bits: UserBits;
  version?: string;
}

/** A set and how many it holds. */
interface Counted {
  bits: UserBits;
  count: number;
}

/** One figure of one business day, as closed_day_figures holds it (`dayFigures` defines them). */
export interface DayFigureRow {
  day: string;
  figure: DayFigure;
  key: string;
  n: number;
  sen: number;
}

/** What a closed day is kept as: its active users and its figures. */
interface ClosedDay extends Counted {
  figures: DayFigureRow[];
}

/**
 * What a database's closed days are kept as in memory: each row (active users and figures) by its
 * version, and unions of several rows' active users (by their versions). A closed row never
 * changes (reopening deletes it with its figures, closing again writes a new version), so nothing
 * kept goes stale; the oldest kept first goes past the limits.
 */
interface ClosedCache {
  days: Map<string, ClosedDay>;
  unions: Map<string, Counted>;
}
const CACHED_DAYS = 2_500;
const CACHED_UNIONS = 256;
const closedCaches = new WeakMap<object, ClosedCache>();

function keep<T>(map: Map<string, T>, key: string, value: T, limit: number): T {
  map.set(key, value);
  for (const oldest of map.keys()) {
    if (map.size <= limit) break;
    map.delete(oldest);
  }
  return value;
}

/** Active users by day, and the distinct users of any of those days together. */
export interface ActiveUsers {
  days: Map<string, ActiveDay>;
  distinct(days: readonly ActiveDay[]): number;
}

/** The business days of a range: their active users and their figures. */
export interface Days {
  active: ActiveUsers;
  /** Every figure of every day, closed or not (none without `figures`). */
  figures: DayFigureRow[];
}

/**
 * The days `from`..`to`: each day's active users (days without any left out) and, with `figures`,
 * every figure of every day. One statement lists the closed days' versions with the open days'
 * active-user shards and figures (one snapshot: a day is read closed or live, never both); a closed
 * day is read once (active users and figures together) and then kept in memory by its version.
 * `distinct` counts the union of some days' users; the union of closed days is kept too.
 */
export async function daysOf(
  db: DbOrTx,
  from: string,
  to: string,
  { figures: withFigures = true }: { figures?: boolean } = {},
  attempt = 0,
): Promise<Days> {
  const liveFigures = withFigures
    ? sql`
    union all
    select null, null, null, null, coalesce(json_agg(f), '[]')
    from (select day::text as day, figure, key, n, sen
          from (${dayFigures(openFrom(from), to)}) d) f`
    : sql``;
  const { rows } = await executePrepared<{
    day: string | null;
    version: string | null;
    shard: number | null;
    users: Uint8Array | null;
    figures: DayFigureRow[] | null;
  }>(
    db,
    sql`
    select day::text as day, version::text as version, null::int as shard, null::bytea as users,
           null::json as figures
    from closed_days
    where day >= ${from}::date and day <= ${to}::date
    union all
    select day::text, null, shard, varbit_send(users), null from active_user_days
    where day >= ${openFrom(from)} and day <= ${to}::date${liveFigures}`,
  );
  const cache = closedCaches.get(db) ?? { days: new Map(), unions: new Map() };
  closedCaches.set(db, cache);
  const missing = rows.flatMap((row) =>
    row.version !== null && !cache.days.has(row.version) ? [row.version] : [],
  );
  if (missing.length > 0) {
    const read = await db.execute<{ version: string; users: Uint8Array; figures: DayFigureRow[] }>(
      sql`
      select c.version::text as version, c.active_users as users,
             (select coalesce(json_agg(f), '[]')
              from (select c.day::text as day, figure, key, n, sen
                    from closed_day_figures where day = c.day) f) as figures
      from closed_days c
      where c.version = any(${`{${missing.join(",")}}`}::bigint[])`,
    );
    for (const row of read.rows) {
      const bits = trimmed(bitsOfBytes(row.users));
      const day = { bits, count: countBits(bits), figures: row.figures };
      keep(cache.days, row.version, day, CACHED_DAYS);
    }
    // A day reopened between the two statements (a reversal of one of its top-ups): list again,
    // so that it is read live rather than left out.
    if (read.rows.length < missing.length && attempt < 3) {
      return daysOf(db, from, to, { figures: withFigures }, attempt + 1);
    }
  }
  const days = new Map<string, ActiveDay>();
  const figures: DayFigureRow[] = [];
  const shardsByDay = new Map<string, Array<{ shard: number; users: Uint8Array }>>();
  for (const row of rows) {
    if (row.figures !== null) {
      figures.push(...row.figures);
    } else if (row.version !== null) {
      const kept = cache.days.get(row.version);
      // Reopened again and again while this request listed it (see above): left out this once.
      if (!kept) continue;
      if (kept.count > 0) days.set(row.day!, { bits: kept.bits, version: row.version });
      figures.push(...kept.figures);
    } else {
      const shards = shardsByDay.get(row.day!) ?? [];
      shards.push({ shard: row.shard!, users: row.users! });
      shardsByDay.set(row.day!, shards);
    }
  }
  for (const [day, shards] of shardsByDay) days.set(day, { bits: bitsOfShards(shards) });

  /** The union of closed days, made once. */
  const closedUnion = (versions: string[], sets: UserBits[]): Counted => {
    if (versions.length === 1) return cache.days.get(versions[0]!)!;
    const key = versions.join(",");
    const kept = cache.unions.get(key);
    if (kept) return kept;
    const bits = unionOf(sets);
    return keep(cache.unions, key, { bits, count: countBits(bits) }, CACHED_UNIONS);
  };
  const distinct = (chosen: readonly ActiveDay[]): number => {
    const closed = chosen.filter((day) => day.version !== undefined);
    const live = chosen.filter((day) => day.version === undefined).map((day) => day.bits);
    const union =
      closed.length > 0
        ? closedUnion(
            closed.map((day) => day.version!),
            closed.map((day) => day.bits),
          )
        : undefined;
    if (live.length === 0) return union?.count ?? 0;
    return countBits(unionOf(union ? [union.bits, ...live] : live));
  };
  return { active: { days, distinct }, figures: withFigures ? figures : [] };
}

// ---- Closing days ----

/** The first business day with any figure, or null. */
async function firstDay(db: DbOrTx): Promise<string | null> {
  const zone = businessTimeZone();
  const { rows } = await db.execute<{ day: string | null }>(sql`
    select least((select min(day) from active_user_days), (select min(day) from top_up_days),
                 (select min(day) from merchant_days),
                 (select (min(created_at) at time zone ${zone})::date from users),
                 (select (min(paid_at) at time zone ${zone})::date from settlements
                  where status = 'paid'))::text as day`);
  return rows[0]?.day ?? null;
}

/**
 * Closes every business day that ended at least CLOSE_GRACE_MS before `now` and is not closed
 * yet, in one transaction under the closing lock. Returns how many days it closed.
 */
export async function closeDays(db: DbOrTx, now: Date = new Date()): Promise<number> {
  const last = addDays(businessDayOf(new Date(now.getTime() - CLOSE_GRACE_MS)), -1);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CLOSE_LOCK})`);
    const { rows } = await tx.execute<{ day: string | null }>(
      sql`select max(day)::text as day from closed_days`,
    );
    const closedThrough = rows[0]?.day ?? null;
    const first =
      closedThrough === null ? ((await firstDay(tx)) ?? last) : addDays(closedThrough, 1);
    if (first > last) return 0;
    await tx.execute(sql`
      insert into closed_day_figures (day, figure, key, n, sen)
      ${dayFigures(sql`${first}::date`, last)}`);
    const {
      active: { days: active },
    } = await daysOf(tx, first, last, { figures: false });
    let closed = 0;
    for (let day = first; day <= last; day = addDays(day, 1)) {
      const bits = active.get(day)?.bits ?? new Uint32Array(0);
      // The running totals: the day before's (none before the first day), plus this day's.
      await tx.execute(sql`
        with before as (
          select merchant_payments as p, merchant_gross as g from closed_days
          where day < ${day}::date order by day desc limit 1
        ), today as (
          select business_id, payment_count, gross_sen from merchant_days where day = ${day}::date
        ), ids as (
          select generate_series(1, greatest(coalesce((select max(business_id) from today), 0),
                                             coalesce((select cardinality(p) from before), 0))) as id
        )
        insert into closed_days (day, active_users, merchant_payments, merchant_gross)
        select ${day}::date, ${Buffer.from(bits.buffer, bits.byteOffset, bits.byteLength)}::bytea,
               coalesce(array_agg(coalesce((select p from before)[i.id], 0)
                                  + coalesce(t.payment_count, 0) order by i.id), '{}'),
               coalesce(array_agg(coalesce((select g from before)[i.id], 0)
                                  + coalesce(t.gross_sen, 0) order by i.id), '{}')
        from ids i left join today t on t.business_id = i.id`);
      closed++;
    }
    return closed;
  });
}

/** Forgets every closed day (a rebuild closes them again from the live roll-ups). */
export async function reopenDays(db: DbOrTx): Promise<void> {
  await db.execute(sql`delete from closed_day_figures`);
  await db.execute(sql`delete from closed_days`);
}

/**
 * A change to the figures of the business day holding `at` (a reversal of an earlier top-up, a
 * ledger row written with an earlier time by a seed): if that day is over, it and every later day
 * are read live again until the next closing (the running totals after it change too). In the
 * changing transaction, after any closing under way (which then sees the change) has committed.
 */
export async function reopenDayOf(tx: DbOrTx, at: Date, now: Date = new Date()): Promise<void> {
  const day = businessDayOf(at);
  if (day >= businessDayOf(now)) return;
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${CLOSE_LOCK})`);
  await tx.execute(sql`delete from closed_day_figures where day >= ${day}::date`);
  await tx.execute(sql`delete from closed_days where day >= ${day}::date`);
}
