/**
 * The ledger's roll-ups for Statistic and the dashboard (tables top_up_days and
 * active_user_days, see schema.ts): what a top-up, a payment or a reversal adds to them, in the
 * caller's transaction (server/services/ledger.ts), and the set-based rebuild for seeds that
 * write the ledger directly and for a change of BUSINESS_TIMEZONE (`--rebuild-summary`).
 *
 * What counts, as Statistic counts it: a top-up that succeeded (a reversal takes it away again);
 * an active user made a top-up or a payment that succeeded (`success`, or `reversed` since: the
 * user was active all the same).
 */
import { sql, type SQL } from "drizzle-orm";

import { businessDayOf, businessTimeZone } from "../business-day";
import { closeDays, reopenDayOf, reopenDays } from "./closed-days";
import type { DbOrTx, Tx } from "./index";
import { rebuildMerchantDays } from "./merchant-days";
import { executePrepared } from "./prepared";

/**
 * Rows per day that a wallet's figures spread over (user_id % LEDGER_SHARDS): top-ups to
 * different wallets rarely wait for one another's row lock. The migration that made the tables
 * (0019) used the same number; changing it needs a rebuild.
 */
export const LEDGER_SHARDS = 32;

/** The ledger rows that make their user active that day (of a table aliased `alias`). */
export const activeRows = (alias: string) => {
  const t = sql.raw(alias);
  return sql`(${t}.type in ('top_up', 'payment') and ${t}.status in ('success', 'reversed'))`;
};

/** The top_up_days upsert that adds a successful top-up to its day (sign −1 takes it away). */
function topUpCount(
  topUp: { userId: number; channel: string | null; amountSen: number; at: Date },
  sign: 1 | -1,
): SQL {
  return sql`
    insert into top_up_days (day, channel, shard, top_ups, top_up_sen)
    values (${businessDayOf(topUp.at)}::date, ${topUp.channel ?? ""}, ${topUp.userId % LEDGER_SHARDS}::int,
            ${sign}::int, ${sign * topUp.amountSen}::bigint)
    on conflict (day, channel, shard) do update
    set top_ups = top_up_days.top_ups + excluded.top_ups,
        top_up_sen = top_up_days.top_up_sen + excluded.top_up_sen`;
}

/** Takes a reversed top-up away from its business day's count (closed or not). */
export async function uncountTopUp(
  tx: Tx,
  topUp: { userId: number; channel: string | null; amountSen: number; at: Date },
): Promise<void> {
  await tx.execute(topUpCount(topUp, -1));
  await reopenDayOf(tx, topUp.at);
}

/**
 * Rolls a new ledger row up, in one statement: a top-up or a payment marks its user active on its
 * business day, and a top-up counts. A row dated on a day already over (a seed writing the past)
 * first reopens that day (closed-days.ts). Only the user's first row of the day writes the day's bit
 * string: when the bit is already set the insert selects nothing, so it takes no row lock.
 */
export async function rollUpEntry(
  tx: Tx,
  row: { type: string; userId: number; channel: string | null; amountSen: number; createdAt: Date },
): Promise<void> {
  await reopenDayOf(tx, row.createdAt);
  if (row.type !== "top_up" && row.type !== "payment") return;
  const day = businessDayOf(row.createdAt);
  const shard = row.userId % LEDGER_SHARDS;
  const bit = Math.floor(row.userId / LEDGER_SHARDS);
  const counted =
    row.type === "top_up"
      ? sql`with counted as (${topUpCount({ ...row, at: row.createdAt }, 1)}) `
      : sql``;
  // A case, not an and, guards get_bit: past the string's end it is an error, and SQL may test
  // either side of an and first.
  await executePrepared(
    tx,
    sql`${counted}
    insert into active_user_days (day, shard, users)
    select ${day}::date, ${shard}::int, varbit_with_bit(''::bit varying, ${bit}::int)
    where not exists (
      select 1 from active_user_days
      where day = ${day}::date and shard = ${shard}::int
        and case when length(users) > ${bit}::int then get_bit(users, ${bit}::int) = 1 end)
    on conflict (day, shard)
    do update set users = varbit_with_bit(active_user_days.users, ${bit}::int)`,
  );
}

/**
 * Every roll-up of the ledger again from its rows: the merchant summary (merchant_days) and the
 * two above, in one statement each; then the closed days again from them (closed-days.ts).
 */
export async function rebuildLedgerRollups(db: DbOrTx): Promise<void> {
  await rebuildMerchantDays(db);
  const day = sql`(t.created_at at time zone ${businessTimeZone()})::date`;
  await db.execute(sql`delete from top_up_days`);
  await db.execute(sql`
    insert into top_up_days (day, channel, shard, top_ups, top_up_sen)
    select ${day}, coalesce(t.channel, ''), t.user_id % ${LEDGER_SHARDS}::int, count(*)::int,
           sum(t.amount_sen)
    from wallet_transactions t
    where t.type = 'top_up' and t.status = 'success'
    group by 1, 2, 3`);
  await db.execute(sql`delete from active_user_days`);
  // The highest bit first: the first call sizes the string, the others only set their bit.
  await db.execute(sql`
    insert into active_user_days (day, shard, users)
    select day, shard, varbit_of_bits(at_bit order by at_bit desc)
    from (select distinct ${day} as day, t.user_id % ${LEDGER_SHARDS}::int as shard,
                 t.user_id / ${LEDGER_SHARDS}::int as at_bit
          from wallet_transactions t where ${activeRows("t")}) a
    group by 1, 2`);
  await reopenDays(db);
  await closeDays(db);
}
