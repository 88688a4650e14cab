/**
 * Daily reconciliation (docs/reconciliation.md): for one business day (BUSINESS_TIMEZONE), five
 * checks that the money adds up, each with its figures and, when it fails, the rows that differ
 * (the first DIFFERENCES_SHOWN of them and how many in all). Set-based SQL over indexed ranges:
 * the day's rows through the ledger's (type, created_at) indexes, its wallets' rows through
 * (user_id, created_at), the day's settlements and their items through their keys.
 *
 * A wallet's rows are chained in id order: ids are drawn under the wallet's row lock, in the
 * order the balance moved (a seed may date a row before rows written earlier, never reorder it).
 */
import { sql } from "drizzle-orm";

import type {
  ReconciliationCheck,
  ReconciliationCheckName,
} from "../../src/shared/modules/reconciliation";
import { recordAudit } from "../audit";
import { addDays, businessDayOf, businessDayStart, businessTimeZone } from "../business-day";
import type { Db, DbOrTx, Tx } from "../db";
import { countedRows } from "../db/merchant-days";
import { HttpError } from "../errors";

/** How many differing rows a check keeps (and says how many there were in all). */
export const DIFFERENCES_SHOWN = 50;
/** How far back the job catches up on missed days. */
export const CATCH_UP_DAYS = 31;
/** One reconciliation at a time (a rerun and the job wait for each other). */
const RECONCILE_LOCK = 0x7265636f; // "reco"
/** A day of the 10M-row bench takes seconds; a first day also sums the ledger before it. */
const RECONCILE_TIMEOUT_MS = 300_000;
/** The memory the settlement check's hashes and sorts may use, for its transaction only. */
const RECONCILE_WORK_MEM = "256MB";

/** The ledger rows that move their wallet's balance (ledger.ts): pending and failed do not. */
const moving = (alias: string) => sql.raw(`${alias}.status in ('success', 'reversed')`);

type Row = Record<string, unknown>;
const num = (value: unknown) => Number(value ?? 0);

async function rowsOf<T extends Row>(db: DbOrTx, query: ReturnType<typeof sql>): Promise<T[]> {
  return (await db.execute(query)).rows as T[];
}

function check(
  name: ReconciliationCheckName,
  figures: Record<string, number | string | null>,
  differences: Row[],
  differenceCount: number,
): ReconciliationCheck {
  return {
    name,
    passed: differenceCount === 0,
    figures,
    differenceCount,
    differences: differences.slice(0, DIFFERENCES_SHOWN) as ReconciliationCheck["differences"],
  };
}

/** The first business day with a ledger row, or undefined on an empty ledger. */
export async function firstLedgerDay(db: DbOrTx): Promise<string | undefined> {
  const [row] = await rowsOf<{ at: Date | string | null }>(
    db,
    // By type, each through its (type, created_at) index: not a scan of the ledger.
    sql`select min(f.at) as at
        from (values ('top_up'), ('payment'), ('refund'), ('reversal'), ('adjustment')) as k(type)
        cross join lateral (select min(t.created_at) as at from wallet_transactions t
                            where t.type = k.type) f`,
  );
  return row?.at ? businessDayOf(new Date(row.at)) : undefined;
}

/**
 * Refuses a day that is not over (today or later: 400 RECONCILIATION_DAY_NOT_OVER) or before the
 * ledger's first day (400 RECONCILIATION_BEFORE_LEDGER, `data.firstDay`).
 */
export async function assertReconcilable(db: DbOrTx, day: string, now = new Date()) {
  const today = businessDayOf(now);
  if (!(day < today)) {
    throw new HttpError(
      400,
      `A business day can be reconciled once it is over (today is ${today})`,
      "RECONCILIATION_DAY_NOT_OVER",
      { today },
    );
  }
  const firstDay = await firstLedgerDay(db);
  if (firstDay === undefined || day < firstDay) {
    throw new HttpError(
      400,
      firstDay === undefined
        ? "The ledger has no row yet: there is no day to reconcile"
        : `The ledger starts on ${firstDay}: there is nothing before it to reconcile`,
      "RECONCILIATION_BEFORE_LEDGER",
      { firstDay: firstDay ?? null },
    );
  }
}

/**
 * Wallet balances and the top-ups' statuses: each row of the wallets active on the day, in id
 * order, with what its balance moved by since the wallet's previous row. The day's rows are
 * followed from the wallet's last row before the day (a day reads its own rows and one index
 * probe per wallet, never a wallet's history); a link that does not hold is looked at again against its exact previous row
 * by id, and a balance unlike the newest row by date against the newest by id, so a row dated
 * before rows written earlier (a seed's backdated fee) is not taken for a break.
 */
async function walletChecks(tx: Tx, start: ReturnType<typeof sql>, end: ReturnType<typeof sql>) {
  // The day's rows through the per-type indexes (one range each), each wallet's last row before
  // the day and its newest row through (user_id, created_at): one index probe each.
  const rows = await rowsOf<Row>(
    tx,
    sql`
    with since as materialized (
      select t.id, t.user_id, t.type, t.status, t.channel, t.amount_sen, t.balance_after_sen,
             t.created_at
      from wallet_transactions t
      where t.type in ('top_up', 'payment', 'refund', 'reversal', 'adjustment')
        and t.created_at >= ${start} and t.created_at < ${end}
    ),
    day_wallets as materialized (select distinct user_id from since),
    -- Each wallet's last row before the day (the newest before it whose id is lower).
    opening as (
      select p.* from (select user_id, min(id) as first_id from since group by user_id) f
      cross join lateral (
        select t.id, t.user_id, t.type, t.status, t.channel, t.amount_sen, t.balance_after_sen,
               t.created_at
        from wallet_transactions t
        where t.user_id = f.user_id and t.created_at < ${start} and t.id < f.first_id
        order by t.created_at desc, t.id desc limit 1) p
    ),
    followed as materialized (
      select c.*, c.created_at < ${end} and c.created_at >= ${start} as of_day,
             lag(c.balance_after_sen) over w as cheap_before,
             lag(c.id) over w as cheap_before_id
      from (select * from since union all select * from opening) c
      window w as (partition by c.user_id order by c.id)
    ),
    -- A link that does not hold (or whose previous row is not the one followed: a row dated
    -- before the day but written after it) is followed again through its exact previous row.
    chained as materialized (
      select f.*,
             case when f.amount_sen = f.balance_after_sen - coalesce(f.cheap_before, 0)
                       or (f.type = 'top_up' and f.balance_after_sen = coalesce(f.cheap_before, 0))
                  then f.cheap_before
                  else (select q.balance_after_sen from wallet_transactions q
                        where q.user_id = f.user_id and q.id < f.id
                        order by q.id + 0 desc limit 1)
             end as before_sen
      from followed f where f.of_day
    ),
    moved as (
      select c.*, c.balance_after_sen - coalesce(c.before_sen, 0) as moved_sen from chained c
    ),
    links as (
      select m.* from moved m
      where m.moved_sen <> m.amount_sen and not (m.type = 'top_up' and m.moved_sen = 0)
    ),
    -- The wallet's balance against its newest row: by date first, else exactly by id.
    newest as (
      select d.user_id, n.id, n.balance_after_sen from day_wallets d
      cross join lateral (
        select t.id, t.balance_after_sen from wallet_transactions t
        where t.user_id = d.user_id order by t.created_at desc, t.id desc limit 1) n
    ),
    balances as (
      select n.user_id, coalesce(e.id, n.id) as id,
             coalesce(e.balance_after_sen, n.balance_after_sen) as balance_after_sen,
             w.balance_sen
      from newest n join wallets w on w.user_id = n.user_id
      left join lateral (
        select q.id, q.balance_after_sen from wallet_transactions q
        where q.user_id = n.user_id and w.balance_sen <> n.balance_after_sen
        order by q.id + 0 desc limit 1) e on true
      where w.balance_sen <> coalesce(e.balance_after_sen, n.balance_after_sen)
    ),
    top_up_statuses as (
      select m.* from moved m
      where m.type = 'top_up' and (${moving("m")}) <> (m.moved_sen = m.amount_sen)
    ),
    differences as (
      select 'link' as kind, l.id, l.user_id, l.type, l.status, l.channel, l.amount_sen,
             coalesce(l.before_sen, 0) + l.amount_sen as expected_sen,
             l.balance_after_sen as actual_sen
      from links l
      union all
      select 'balance', b.id, b.user_id, null, null, null, null, b.balance_after_sen,
             b.balance_sen
      from balances b
      union all
      select 'status', s.id, s.user_id, s.type, s.status, s.channel, s.amount_sen,
             case when ${moving("s")} then s.amount_sen else 0 end, s.moved_sen
      from top_up_statuses s
    ),
    counted as (
      select (select count(*) from day_wallets)::int as wallets,
             (select count(*) from chained)::int as day_rows,
             (select count(*) from followed)::int as chained_rows,
             (select count(*) from links)::int as links,
             (select count(*) from balances)::int as balances,
             (select count(*) from top_up_statuses)::int as statuses
    )
    select c.*, d.kind, d.id, d.user_id as "userId", u.account_number as "accountNumber",
           d.type, d.status, d.channel, d.amount_sen as "amountSen",
           d.expected_sen as "expectedSen", d.actual_sen as "actualSen"
    from counted c
    left join (
      select * from (select x.*, row_number() over (partition by x.kind order by x.id) as n
                     from differences x) ranked
      where ranked.n <= ${DIFFERENCES_SHOWN}
    ) d on true
    left join users u on u.id = d.user_id
    order by d.kind, d.id`,
  );
  const head = rows[0] ?? {};
  const listed = rows.filter((row) => row.kind != null);
  const shape = (row: Row) => ({
    kind: String(row.kind),
    transactionId: num(row.id),
    userId: num(row.userId),
    accountNumber: (row.accountNumber as string | null) ?? null,
    ...(row.type != null && { type: String(row.type) }),
    ...(row.status != null && { status: String(row.status) }),
    ...(row.channel != null && { channel: String(row.channel) }),
    ...(row.amountSen != null && { amountSen: num(row.amountSen) }),
    expectedSen: num(row.expectedSen),
    actualSen: num(row.actualSen),
    differenceSen: num(row.actualSen) - num(row.expectedSen),
  });
  const walletRows = listed.filter((row) => row.kind !== "status").map(shape);
  const statusRows = listed.filter((row) => row.kind === "status").map(shape);
  return {
    wallets: {
      figures: {
        wallets: num(head.wallets),
        rows: num(head.day_rows),
        rowsChained: num(head.chained_rows),
        brokenLinks: num(head.links),
        balanceMismatches: num(head.balances),
      },
      differences: walletRows,
      count: num(head.links) + num(head.balances),
    },
    statuses: { rows: statusRows, count: num(head.statuses) },
  };
}

/** The day's money by kind of row (sen, signed as on the ledger), for the float. */
async function dayMovements(db: DbOrTx, from: ReturnType<typeof sql>, to?: ReturnType<typeof sql>) {
  const range = to
    ? sql`t.created_at >= ${from} and t.created_at < ${to}`
    : sql`t.created_at >= ${from}`;
  const rows = await rowsOf<{ type: string; sen: string | null }>(
    db,
    sql`
    select k.type, (select sum(t.amount_sen) from wallet_transactions t
                    where t.type = k.type and ${range} and ${moving("t")}) as sen
    from (values ('top_up'), ('payment'), ('refund'), ('reversal'), ('adjustment')) as k(type)`,
  );
  return Object.fromEntries(rows.map((row) => [row.type, num(row.sen)])) as Record<
    "top_up" | "payment" | "refund" | "reversal" | "adjustment",
    number
  >;
}

const total = (moves: Record<string, number>) =>
  Object.values(moves).reduce((sum, sen) => sum + sen, 0);

/**
 * The float: the sum of the balances at the day's close (the wallets' balances now, less what
 * moved since the close) against the previous close plus the day's movements. The previous close
 * is the day before's stored result, else (the first day reconciled) the ledger's sum before it.
 */
async function floatCheck(
  tx: Tx,
  day: string,
  start: ReturnType<typeof sql>,
  end: ReturnType<typeof sql>,
  movedSinceSen?: number,
) {
  const [stored] = await rowsOf<{ sen: string }>(
    tx,
    sql`select closing_float_sen as sen from reconciliation_days
        where day = ${addDays(day, -1)}::date`,
  );
  let previousCloseSen = num(stored?.sen);
  if (!stored) {
    const [before] = await rowsOf<{ sen: string | null }>(
      tx,
      sql`select sum(t.amount_sen) as sen from wallet_transactions t
          where t.created_at < ${start} and ${moving("t")}`,
    );
    previousCloseSen = num(before?.sen);
  }
  const moves = await dayMovements(tx, start, end);
  const since = movedSinceSen ?? total(await dayMovements(tx, end));
  const [balances] = await rowsOf<{ sen: string | null }>(
    tx,
    sql`select sum(balance_sen) as sen from wallets`,
  );
  const closingFloatSen = num(balances?.sen) - since;
  const expectedCloseSen = previousCloseSen + total(moves);
  const differenceSen = closingFloatSen - expectedCloseSen;
  return {
    closingFloatSen,
    check: check(
      "float",
      {
        previousCloseSen,
        previousCloseFrom: stored ? "reconciliation" : "ledger",
        topUpsSen: moves.top_up,
        paymentsSen: -moves.payment,
        refundsSen: moves.refund,
        reversalsSen: -moves.reversal,
        adjustmentsSen: moves.adjustment,
        expectedCloseSen,
        closingFloatSen,
        differenceSen,
      },
      differenceSen === 0
        ? []
        : [
            {
              kind: "float",
              expectedSen: expectedCloseSen,
              actualSen: closingFloatSen,
              differenceSen,
            },
          ],
      differenceSen === 0 ? 0 : 1,
    ),
  };
}

/**
 * Top-ups by channel: the ledger's top-up rows of the day by status against the roll-up
 * (top_up_days, which counts the successful ones as they happen), and every top-up whose status
 * disagrees with what it did to its wallet's balance.
 */
async function topUpCheck(
  tx: Tx,
  day: string,
  start: ReturnType<typeof sql>,
  end: ReturnType<typeof sql>,
  statuses: { rows: Row[]; count: number },
) {
  const rows = await rowsOf<Row>(
    tx,
    sql`
    with ledger as (
      select coalesce(t.channel, '') as channel,
             count(*) filter (where t.status = 'success')::int as success,
             coalesce(sum(t.amount_sen) filter (where t.status = 'success'), 0) as success_sen,
             count(*) filter (where t.status = 'pending')::int as pending,
             count(*) filter (where t.status = 'failed')::int as failed,
             count(*) filter (where t.status = 'reversed')::int as reversed
      from wallet_transactions t
      where t.type = 'top_up' and t.created_at >= ${start} and t.created_at < ${end}
      group by 1
    ),
    rolled as (
      select channel, sum(top_ups)::int as top_ups, coalesce(sum(top_up_sen), 0) as top_up_sen
      from top_up_days where day = ${day}::date group by 1
    )
    select coalesce(l.channel, r.channel) as channel, coalesce(l.success, 0) as success,
           coalesce(l.success_sen, 0) as "successSen", coalesce(l.pending, 0) as pending,
           coalesce(l.failed, 0) as failed, coalesce(l.reversed, 0) as reversed,
           coalesce(r.top_ups, 0) as "rollUpCount", coalesce(r.top_up_sen, 0) as "rollUpSen"
    from ledger l full join rolled r on r.channel = l.channel
    order by 1`,
  );
  const channels = rows.map((row) => ({
    channel: String(row.channel),
    success: num(row.success),
    successSen: num(row.successSen),
    pending: num(row.pending),
    failed: num(row.failed),
    reversed: num(row.reversed),
    rollUpCount: num(row.rollUpCount),
    rollUpSen: num(row.rollUpSen),
  }));
  const off = channels
    .filter((c) => c.success !== c.rollUpCount || c.successSen !== c.rollUpSen)
    .map((c) => ({
      kind: "channel",
      channel: c.channel,
      expectedSen: c.rollUpSen,
      actualSen: c.successSen,
      differenceSen: c.successSen - c.rollUpSen,
      expectedCount: c.rollUpCount,
      actualCount: c.success,
    }));
  const figures: Record<string, number> = {};
  for (const c of channels) {
    const key = c.channel || "none";
    figures[`${key}.success`] = c.success;
    figures[`${key}.successSen`] = c.successSen;
    figures[`${key}.pending`] = c.pending;
    figures[`${key}.failed`] = c.failed;
    figures[`${key}.reversed`] = c.reversed;
    figures[`${key}.rollUpCount`] = c.rollUpCount;
    figures[`${key}.rollUpSen`] = c.rollUpSen;
  }
  return check("topUps", figures, [...off, ...statuses.rows], off.length + statuses.count);
}

/**
 * Whether `settlement_items` holds at most one row per ledger row: its primary key on
 * `transaction_id` is in force (present and valid). PostgreSQL then refuses a second settlement of
 * a row, so none can exist, and the items check need not look for one row by row; without it (the
 * key dropped by someone with the database owner's rights), every item is looked for in the
 * other settlements.
 */
async function itemsKeyInForce(tx: Tx): Promise<boolean> {
  const [row] = await rowsOf<{ inForce: boolean }>(
    tx,
    sql`select exists (
      select 1 from pg_index x
      where x.indrelid = 'settlement_items'::regclass and x.indisprimary and x.indisvalid
        and x.indnatts = 1
        and x.indkey[0] = (select attnum from pg_attribute
                           where attrelid = 'settlement_items'::regclass
                             and attname = 'transaction_id')
    ) as "inForce"`,
  );
  return row?.inForce === true;
}

/**
 * Settlements whose period ends on the day: each one's figures again from its items' ledger
 * rows (an item in two settlements counts for the first: the items check names it), net =
 * gross − refunds − fees, and every item a counted row of the settlement's own business.
 * Then the items check: no item of these settlements is in another settlement.
 *
 * An item's ledger row is read as the run read it: among its business's rows of the
 * settlement's period, from the ledger's covering index of business rows (index-only, one range
 * per settlement), matched to the items by hash. Only an item outside its period's rows (a stray,
 * or no ledger row at all) is looked up by the ledger's key: a month's run at 10 million ledger
 * rows covers 1.3 million items, which, looked up one by one, read the ledger's pages 1.3
 * million times (minutes on the embedded store). The period rows and the items are not
 * materialized: the planner then sees how many there are and hashes them (materialized, it
 * guessed a few thousand and sorted both for a merge: 5.4 s of PostgreSQL's 10M day, now 2.9 s).
 */
async function settlementChecks(tx: Tx, day: string) {
  const keyed = await itemsKeyInForce(tx);
  // The day's settlements may cover a month of rows: hashed and sorted in memory, for this
  // transaction only.
  await tx.execute(sql`select set_config('work_mem', ${RECONCILE_WORK_MEM}, true)`);
  const zone = businessTimeZone();
  const rows = await rowsOf<Row>(
    tx,
    sql`
    with settled as materialized (
      select s.* from settlements s where s.period_end = ${day}::date
    ),
    period_rows as (
      select s.id as settlement_id, t.id, t.business_id, t.type, t.status, t.amount_sen,
             t.fee_sen
      from settled s
      join wallet_transactions t on t.business_id = s.business_id
        and t.created_at >= (s.period_start::timestamp at time zone ${zone})
        and t.created_at < ((s.period_end + 1)::timestamp at time zone ${zone})
    ),
    -- Each item with its settlement's business (the owner its ledger row must belong to). The
    -- settlements' items in one scan (a run's items lie together, while one settlement's are
    -- spread over them: read settlement by settlement, a page per item).
    all_items as (
      select i.settlement_id, i.transaction_id, s.business_id as owner_id
      from settlement_items i join settled s on s.id = i.settlement_id
      where i.settlement_id = any (array(select id from settled))
    ),
    -- Each item with its ledger row: among its settlement's period rows (hashed), else, for an
    -- item outside them only, by the ledger's key ("offset 0" keeps that look-up per such item
    -- rather than a join of the whole ledger).
    items as materialized (
      select i.settlement_id, i.transaction_id, i.owner_id,
             coalesce(r.business_id, t.business_id) as business_id,
             coalesce(r.type, t.type) as type, coalesce(r.status, t.status) as status,
             coalesce(r.amount_sen, t.amount_sen) as amount_sen,
             coalesce(r.fee_sen, t.fee_sen) as fee_sen, coalesce(r.id, t.id) as ledger_id,
             ${
               keyed
                 ? sql`false`
                 : sql`exists (select 1 from settlement_items j
                     where j.transaction_id = i.transaction_id
                       and j.settlement_id < i.settlement_id)`
             } as earlier
      from all_items i
      left join period_rows r on r.id = i.transaction_id and r.settlement_id = i.settlement_id
      left join lateral (
        select t.id, t.business_id, t.type, t.status, t.amount_sen, t.fee_sen
        from wallet_transactions t
        where r.id is null and t.id = i.transaction_id
        offset 0
      ) t on true
    ),
    -- Each settlement's figures from its items, in one pass over them (grouped, not a pass per
    -- settlement: 405 passes over a month's 1.3 million items took a minute).
    figures as materialized (
      select i.settlement_id,
             count(*) filter (where i.type = 'payment')::int as payment_count,
             coalesce(sum(-i.amount_sen) filter (where i.type = 'payment'), 0) as gross_sen,
             count(*) filter (where i.type = 'refund')::int as refund_count,
             coalesce(sum(i.amount_sen) filter (where i.type = 'refund'), 0) as refund_sen,
             coalesce(sum(i.fee_sen) filter (where i.type = 'payment'), 0) as fee_sen
      from items i
      where not i.earlier and i.business_id = i.owner_id and ${countedRows("i")}
      group by i.settlement_id
    ),
    recomputed as (
      select s.id, s.business_id, b.name as business_name, s.payment_count, s.gross_sen,
             s.refund_count, s.refund_sen, s.fee_sen, s.net_sen,
             coalesce(f.payment_count, 0) as r_payment_count, coalesce(f.gross_sen, 0) as r_gross,
             coalesce(f.refund_count, 0) as r_refund_count, coalesce(f.refund_sen, 0) as r_refund,
             coalesce(f.fee_sen, 0) as r_fee
      from settled s
      join businesses b on b.id = s.business_id
      left join figures f on f.settlement_id = s.id
    ),
    strays as (
      select i.settlement_id, i.transaction_id, i.type, i.status, i.business_id
      from items i
      where not i.earlier
        and (i.ledger_id is null or i.business_id is distinct from i.owner_id
             or not ${countedRows("i")})
    ),
    twice as (
      select i.transaction_id, array_agg(distinct j.settlement_id order by j.settlement_id) as ids
      from items i join settlement_items j on j.transaction_id = i.transaction_id
      where not ${keyed}
      group by i.transaction_id
      having count(distinct j.settlement_id) > 1
    )
    select 'settlement' as part, to_jsonb(r) as data from recomputed r
    union all select 'stray', to_jsonb(s) from strays s
    union all select 'twice', to_jsonb(t) from twice t
    union all select 'items', jsonb_build_object('n', (select count(*) from items))`,
  );
  const of = (part: string) =>
    rows.filter((row) => row.part === part).map((row) => row.data as Row);
  const settlementRows = of("settlement");
  const merchantDiffs: Row[] = [];
  for (const s of settlementRows) {
    const net = num(s.r_gross) - num(s.r_refund) - num(s.r_fee);
    const pairs: Array<[string, number, number]> = [
      ["paymentCount", num(s.r_payment_count), num(s.payment_count)],
      ["grossSen", num(s.r_gross), num(s.gross_sen)],
      ["refundCount", num(s.r_refund_count), num(s.refund_count)],
      ["refundSen", num(s.r_refund), num(s.refund_sen)],
      ["feeSen", num(s.r_fee), num(s.fee_sen)],
      ["netSen", net, num(s.net_sen)],
    ];
    for (const [field, expected, actual] of pairs) {
      if (expected === actual) continue;
      merchantDiffs.push({
        kind: "settlement",
        settlementId: num(s.id),
        businessId: num(s.business_id),
        businessName: String(s.business_name),
        field,
        expectedSen: expected,
        actualSen: actual,
        differenceSen: actual - expected,
      });
    }
  }
  for (const stray of of("stray")) {
    merchantDiffs.push({
      kind: "item",
      settlementId: num(stray.settlement_id),
      transactionId: num(stray.transaction_id),
      ...(stray.type != null && { type: String(stray.type) }),
      ...(stray.status != null && { status: String(stray.status) }),
    });
  }
  const twice = of("twice").map((row) => ({
    kind: "duplicate",
    transactionId: num(row.transaction_id),
    settlementIds: (row.ids as number[]).map(Number),
  }));
  const itemCount = num(of("items")[0]?.n);
  return {
    merchants: check(
      "settlements",
      {
        settlements: settlementRows.length,
        items: itemCount,
        grossSen: settlementRows.reduce((sum, s) => sum + num(s.gross_sen), 0),
        refundSen: settlementRows.reduce((sum, s) => sum + num(s.refund_sen), 0),
        feeSen: settlementRows.reduce((sum, s) => sum + num(s.fee_sen), 0),
        netSen: settlementRows.reduce((sum, s) => sum + num(s.net_sen), 0),
      },
      merchantDiffs,
      merchantDiffs.length,
    ),
    items: check(
      "settlementItems",
      { settlements: settlementRows.length, items: itemCount, inTwoSettlements: twice.length },
      twice,
      twice.length,
    ),
  };
}

export interface ReconciliationResult {
  day: string;
  status: "passed" | "failed";
  checks: ReconciliationCheck[];
  closingFloatSen: number;
  failedChecks: number;
}

/** Runs the five checks of `day` (no write), in the caller's transaction. */
export async function reconcileChecks(
  tx: Tx,
  day: string,
  /** What the moving rows after the day add up to, when the caller knows (the demo's seed). */
  known: { movedSinceSen?: number } = {},
): Promise<ReconciliationResult> {
  await tx.execute(
    sql`select set_config('statement_timeout', ${String(RECONCILE_TIMEOUT_MS)}, true)`,
  );
  const start = businessDayStart(day);
  const end = businessDayStart(addDays(day, 1));
  const wallet = await walletChecks(tx, start, end);
  const float = await floatCheck(tx, day, start, end, known.movedSinceSen);
  const topUps = await topUpCheck(tx, day, start, end, wallet.statuses);
  const settled = await settlementChecks(tx, day);
  const checks = [
    check(
      "walletBalances",
      wallet.wallets.figures,
      wallet.wallets.differences,
      wallet.wallets.count,
    ),
    float.check,
    topUps,
    settled.merchants,
    settled.items,
  ];
  const failedChecks = checks.filter((c) => !c.passed).length;
  return {
    day,
    status: failedChecks === 0 ? "passed" : "failed",
    checks,
    closingFloatSen: float.closingFloatSen,
    failedChecks,
  };
}

/**
 * Reconciles `day` and stores its result, replacing an earlier one (a rerun keeps the day's
 * investigation only when its checks came out exactly as before). `adminId` null: the job.
 * Audited `reconciliation.run` when an administrator asked. Returns the day's row id.
 */
export async function reconcileDay(
  db: Db,
  day: string,
  run: { adminId: number | null; now?: Date },
): Promise<{ id: number; result: ReconciliationResult }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${RECONCILE_LOCK})`);
    const result = await reconcileChecks(tx, day);
    const at = (run.now ?? new Date()).toISOString();
    const [before] = await rowsOf<{ status: string; failedChecks: number }>(
      tx,
      sql`select status, failed_checks as "failedChecks" from reconciliation_days
          where day = ${day}::date`,
    );
    const [saved] = await rowsOf<{ id: number }>(
      tx,
      sql`
      insert into reconciliation_days as r (day, status, checks, closing_float_sen, failed_checks,
                                             ran_by, ran_at, created_at, updated_at)
      values (${day}::date, ${result.status}, ${JSON.stringify(result.checks)}::jsonb,
              ${result.closingFloatSen}, ${result.failedChecks}, ${run.adminId},
              ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz)
      on conflict (day) do update set
        status = excluded.status, checks = excluded.checks,
        closing_float_sen = excluded.closing_float_sen, failed_checks = excluded.failed_checks,
        ran_by = excluded.ran_by, ran_at = excluded.ran_at, updated_at = excluded.updated_at,
        investigated_by = case when excluded.status = 'failed' and r.checks = excluded.checks
                               then r.investigated_by end,
        investigated_at = case when excluded.status = 'failed' and r.checks = excluded.checks
                               then r.investigated_at end,
        investigation_remark = case when excluded.status = 'failed' and r.checks = excluded.checks
                                    then r.investigation_remark end
      returning id`,
    );
    const id = saved!.id;
    if (run.adminId !== null) {
      await recordAudit(tx, {
        adminId: run.adminId,
        action: "reconciliation.run",
        targetTable: "reconciliation_days",
        targetId: id,
        remark: `Reconciliation of ${day}`,
        before: before ?? null,
        after: { status: result.status, failedChecks: result.failedChecks },
      });
    }
    return { id, result };
  });
}

/**
 * The days the job reconciles now: from the day after the last reconciled one (at most
 * CATCH_UP_DAYS back, never before the ledger's first day) to the last day over for `graceMs`.
 */
export async function daysToReconcile(db: DbOrTx, now: Date, graceMs: number): Promise<string[]> {
  const lastOver = addDays(businessDayOf(new Date(now.getTime() - graceMs)), -1);
  const firstDay = await firstLedgerDay(db);
  if (firstDay === undefined || lastOver < firstDay) return [];
  const [row] = await rowsOf<{ day: string | null }>(
    db,
    sql`select max(day)::text as day from reconciliation_days`,
  );
  let from = row?.day ? addDays(row.day, 1) : lastOver;
  const earliest = addDays(lastOver, -(CATCH_UP_DAYS - 1));
  if (from < earliest) from = earliest;
  if (from < firstDay) from = firstDay;
  const days: string[] = [];
  for (let day = from; day <= lastOver; day = addDays(day, 1)) days.push(day);
  return days;
}
