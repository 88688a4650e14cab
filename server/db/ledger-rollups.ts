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
import { sql } from "drizzle-orm";

import { businessDayOf, businessTimeZone } from "../business-day";
import type { DbOrTx, Tx } from "./index";
import { rebuildMerchantDays } from "./merchant-days";
import { topUpDays } from "./schema";

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

/** Adds a successful top-up to its business day (sign −1: takes a reversed one away). */
export async function countTopUp(
  tx: Tx,
  topUp: { userId: number; channel: string | null; amountSen: number; at: Date },
  sign: 1 | -1,
): Promise<void> {
  await tx
    .insert(topUpDays)
    .values({
      day: businessDayOf(topUp.at),
      channel: topUp.channel ?? "",
      shard: topUp.userId % LEDGER_SHARDS,
      topUps: sign,
      topUpSen: sign * topUp.amountSen,
    })
    .onConflictDoUpdate({
      target: [topUpDays.day, topUpDays.channel, topUpDays.shard],
      set: {
        topUps: sql`${topUpDays.topUps} + excluded.top_ups`,
        topUpSen: sql`${topUpDays.topUpSen} + excluded.top_up_sen`,
      },
    });
}

/**
 * Marks the user active on the business day of `at`. Their second top-up or payment of the day
 * finds the bit set and takes no row lock; only the first of each day writes.
 */
export async function markActive(tx: Tx, userId: number, at: Date): Promise<void> {
  const day = businessDayOf(at);
  const shard = userId % LEDGER_SHARDS;
  const bit = Math.floor(userId / LEDGER_SHARDS);
  const { rows } = await tx.execute(sql`
    select 1 from active_user_days
    where day = ${day}::date and shard = ${shard}::int
      and case when length(users) > ${bit}::int then get_bit(users, ${bit}::int) = 1 end`);
  if (rows.length > 0) return;
  await tx.execute(sql`
    insert into active_user_days (day, shard, users)
    values (${day}::date, ${shard}::int, varbit_with_bit(''::bit varying, ${bit}::int))
    on conflict (day, shard)
    do update set users = varbit_with_bit(active_user_days.users, ${bit}::int)`);
}

/**
 * Every roll-up of the ledger again from its rows: the merchant summary (merchant_days) and the
 * two above, in one statement each.
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
}
