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
import { LEDGER_SHARDS } from "./ledger-shards";
import { rebuildMerchantDays } from "./merchant-days";

/** The ledger rows that make their user active that day (of a table aliased `alias`). */
export const activeRows = (alias: string) => {
  const t = sql.raw(alias);
  return sql`(${t}.type in ('top_up', 'payment') and ${t}.status in ('success', 'reversed'))`;
};

/**
 * The top_up_days upsert that adds a successful top-up to its day (a count of −1 takes it away);
 * its values are given or placeholders.
 */
function topUpCount(topUp: {
  day: unknown;
  channel: unknown;
  shard: unknown;
  count: unknown;
  sen: unknown;
}): SQL {
  return sql`
    insert into top_up_days (day, channel, shard, top_ups, top_up_sen)
    values (${topUp.day}::date, ${topUp.channel}::text, ${topUp.shard}::int, ${topUp.count}::int,
            ${topUp.sen}::bigint)
    on conflict (day, channel, shard) do update
    set top_ups = top_up_days.top_ups + excluded.top_ups,
        top_up_sen = top_up_days.top_up_sen + excluded.top_up_sen`;
}

/** Takes a reversed top-up away from its business day's count (closed or not). */
export async function uncountTopUp(
  tx: Tx,
  topUp: { userId: number; channel: string | null; amountSen: number; at: Date },
): Promise<void> {
  await tx.execute(
    topUpCount({
      day: businessDayOf(topUp.at),
      channel: topUp.channel ?? "",
      shard: topUp.userId % LEDGER_SHARDS,
      count: -1,
      sen: -topUp.amountSen,
    }),
  );
  await reopenDayOf(tx, topUp.at);
}

/**
 * What a new ledger row adds to the roll-ups: a top-up counts and makes its user active on its
 * business day, a payment makes its user active, any other row adds nothing.
 */
export const rollUpKinds = ["top_up", "payment", "none"] as const;
export type RollUpKind = (typeof rollUpKinds)[number];

const rolled = (name: string) => sql.placeholder(`rollUp.${name}`);

/**
 * The CTEs that roll a new ledger row up, for the statement that inserts it (ledger.ts, append):
 * their values are the placeholders that `rollUpOf` gives. Only the user's first row of the day
 * writes the day's bit string: when the bit is already set the insert selects nothing, so it takes
 * no row lock. A case, not an and, guards get_bit: past the string's end it is an error, and SQL
 * may test either side of an and first.
 */
export function rollUpCtes(db: DbOrTx, kind: RollUpKind) {
  if (kind === "none") return [];
  const [day, shard, bit] = [rolled("day"), rolled("shard"), rolled("bit")];
  const active = db.$with("active_user", { done: sql<number>`1` }).as(sql`
    insert into active_user_days (day, shard, users)
    select ${day}::date, ${shard}::int, varbit_with_bit(''::bit varying, ${bit}::int)
    where not exists (
      select 1 from active_user_days
      where day = ${day}::date and shard = ${shard}::int
        and case when length(users) > ${bit}::int then get_bit(users, ${bit}::int) = 1 end)
    on conflict (day, shard)
    do update set users = varbit_with_bit(active_user_days.users, ${bit}::int)`);
  if (kind === "payment") return [active];
  const counted = db
    .$with("counted_top_up", { done: sql<number>`1` })
    .as(topUpCount({ day, shard, channel: rolled("channel"), count: 1, sen: rolled("sen") }));
  return [active, counted];
}

/** The kind of a new ledger row's roll-up, and the values of its CTEs' placeholders. */
export function rollUpOf(row: {
  type: string;
  userId: number;
  channel?: string | null;
  amountSen: number;
  createdAt: Date;
}): { kind: RollUpKind; values: Record<string, unknown> } {
  if (row.type !== "top_up" && row.type !== "payment") return { kind: "none", values: {} };
  return {
    kind: row.type,
    values: {
      "rollUp.day": businessDayOf(row.createdAt),
      "rollUp.shard": row.userId % LEDGER_SHARDS,
      "rollUp.bit": Math.floor(row.userId / LEDGER_SHARDS),
      ...(row.type === "top_up" && {
        "rollUp.channel": row.channel ?? "",
        "rollUp.sen": row.amountSen,
      }),
    },
  };
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
