import { sql, type SQL } from "drizzle-orm";

import {
  ACCOUNT_NUMBER_DIGITS,
  ACCOUNT_NUMBER_PATTERN,
  accountNumber,
} from "../../src/shared/domain";
import type { Db, Tx } from "../db";
import { rebuildLedgerRollups } from "../db/ledger-rollups";

/** Rows per INSERT … SELECT generate_series: large enough to be fast, small enough for PGlite. */
const CHUNK = 50_000;

/**
 * PostgreSQL compiles a query whose estimated cost is high (a generate_series is guessed at 1,000
 * rows a call) with LLVM first: 3.5 s of every 4 s a ledger chunk took. PGlite has no JIT.
 */
const NO_JIT = sql`set local jit = off`;

/**
 * How many rows `table` lacks of `targetTotal`, and `last`: the highest number its rows use yet,
 * by the aggregate `highest` (0 for none).
 */
async function shortfall(db: Db, targetTotal: number, table: string, highest: SQL) {
  const [state] = (
    await db.execute<{ total: number; last: number }>(
      sql`select count(*)::int as total, coalesce(${highest}, 0)::int as last
          from ${sql.identifier(table)}`,
    )
  ).rows;
  return { missing: targetTotal - (state?.total ?? 0), last: state?.last ?? 0 };
}

export interface BulkSeedProgress {
  inserted: number;
  target: number;
}

/**
 * Grows the users table to `targetTotal` rows (with a wallet each, and rider and agent details for
 * those roles) using set-based SQL: one INSERT … SELECT FROM generate_series per chunk, never a
 * row at a time. Values are derived from the account number with integer hashing, so the data is
 * deterministic. Existing users are kept; returns how many were added.
 */
export async function bulkSeedUsers(
  db: Db,
  targetTotal: number,
  onProgress?: (progress: BulkSeedProgress) => void,
): Promise<number> {
  const { missing, last } = await shortfall(
    db,
    targetTotal,
    "users",
    sql`max(substring(account_number from 2)::int)
          filter (where account_number ~ ${ACCOUNT_NUMBER_PATTERN.source})`,
  );
  if (missing <= 0) return 0;

  const first = last + 1;
  const lastNumber = first + missing - 1;
  for (let start = first; start <= lastNumber; start += CHUNK) {
    const end = Math.min(start + CHUNK - 1, lastNumber);
    await db.transaction(async (tx) => {
      await tx.execute(NO_JIT);
      await tx.execute(insertUsers(start, end));
      // The wallets' foreign key checks plan their lookup of users from the users' statistics:
      // taken on the demo set (or never), they once chose to scan the 50,000 new users for each
      // of their wallets (seven minutes instead of one second).
      if (start === first) await tx.execute(sql`analyze users`);
      const from = accountNumber(start);
      const to = accountNumber(end);
      await tx.execute(sql`
        insert into wallets (user_id, balance_sen, status, created_at, updated_at)
        select u.id,
               case when u.approval_status = 'approved' then (u.id::bigint * 7919 % 50000) * 10 else 0 end,
               case when u.is_banned then 'frozen'
                    when u.last_active_at < now() - interval '365 days' then 'dormant'
                    else 'active' end,
               u.created_at, u.created_at
        from users u
        where u.account_number between ${from} and ${to}
        on conflict (user_id) do nothing`);
      await tx.execute(sql`
        insert into riders (user_id, vehicle_type, plate, licence_number, verification_status,
                            created_at, updated_at)
        select u.id,
               (array['motorcycle', 'car', 'bicycle', 'e-scooter'])[1 + u.id % 4],
               (array['WA', 'WB', 'BK', 'JQ', 'PK'])[1 + u.id % 5] || ' ' || (1000 + u.id % 9000),
               'D' || (10000000 + u.id::bigint * 48271 % 89999999),
               case when u.approval_status <> 'approved' then 'pending'
                    when u.id % 10 < 6 then 'Approved'
                    when u.id % 10 < 9 then 'pending'
                    else 'Rejected' end,
               u.created_at, u.created_at
        from users u
        where u.account_number between ${from} and ${to} and u.role = 'rider'
        on conflict (user_id) do nothing`);
      await tx.execute(sql`
        insert into agents (user_id, agent_type, commission_rate_bp, created_at, updated_at)
        select u.id, case when u.id % 3 = 0 then 'external' else 'campus' end,
               (5 + u.id % 46) * 10, u.created_at, u.created_at
        from users u
        where u.account_number between ${from} and ${to} and u.role = 'agent'
        on conflict (user_id) do nothing`);
    });
    onProgress?.({ inserted: end - first + 1, target: missing });
  }
  // VACUUM as well: it fills the visibility map that index-only scans (deep pages, counts) need,
  // and PGlite has no autovacuum to do it later.
  await db.execute(sql`vacuum analyze users`);
  await db.execute(sql`vacuum analyze wallets`);
  return missing;
}

/**
 * Grows the merchants to `targetTotal`, owned by approved merchant users (80% approved, 8%
 * pending, 6% suspended, 6% rejected), with set-based SQL. Returns how many were added.
 */
export async function bulkSeedBusinesses(db: Db, targetTotal: number): Promise<number> {
  const [state] = (
    await db.execute<{ total: number }>(sql`select count(*)::int as total from businesses`)
  ).rows;
  const first = (state?.total ?? 0) + 1;
  if (first > targetTotal) return 0;
  const h = (k: number) => hash("n", k);
  const { rowCount } = await db.execute(sql`
    insert into businesses (owner_user_id, name, registration_number, category, status,
                            fee_rate_bp, bank_name, bank_account, remark, reviewed_at,
                            created_at, updated_at)
    select owners.ids[1 + ${h(1)} % cardinality(owners.ids)],
           (array['Canteen', 'Café', 'Books', 'Print Shop', 'Laundry', 'Mini Mart', 'Kiosk'])
             [1 + n % 7] || ' ' || n,
           lpad((202300000000 + ${h(2)})::text, 12, '0') || '-' || chr(65 + n % 10),
           (array['canteen', 'cafe', 'bookshop', 'print_shop', 'laundry', 'convenience',
                  'other'])[1 + n % 7],
           status, (10 + ${h(3)} % 25) * 10,
           (array['Maybank', 'CIMB Bank', 'Public Bank', 'RHB Bank', 'Hong Leong Bank'])[1 + n % 5],
           (100000000000 + ${h(4)} * 899999)::text,
           case status when 'suspended' then 'Suspended pending an inspection'
                       when 'rejected' then 'Business registration could not be verified' end,
           case when status <> 'pending' then created + interval '2 days' end,
           created, created
    from (select n,
                 case when ${h(5)} % 50 < 40 then 'approved' when ${h(5)} % 50 < 44 then 'pending'
                      when ${h(5)} % 50 < 47 then 'suspended' else 'rejected' end as status,
                 now() - (200 + ${h(6)} % 400) * interval '1 day' as created
          from generate_series(${first}::int, ${targetTotal}::int) as n) as generated,
         (select array_agg(id order by id) as ids from users
          where role = 'merchant' and approval_status = 'approved') as owners
    where cardinality(owners.ids) > 0`);
  await db.execute(sql`vacuum analyze businesses`);
  return rowCount ?? 0;
}

/**
 * Grows the ledger to `targetTotal` rows with set-based SQL, spread evenly over the wallets that
 * have none yet (the same number of rows each, give or take one; about CHUNK rows a statement),
 * and sets each of those wallets' balance to its ledger's sum. A wallet's rows run from its
 * owner's sign-up to now in blocks of ten: two or three top-ups (by FPX, card, agent or at the counter; now and then a
 * failed FPX one, a pending one in the last day, or a counter or agent top-up reversed by the
 * next row), then seven payments to merchants that together spend less than the block's credited
 * top-ups, so no balance goes below zero. Deterministic but for the dates (relative to now).
 * One transaction, with the ledger's secondary indexes and foreign keys set aside meanwhile (see
 * withoutSecondaryStructures). Returns how many rows were added.
 */
export async function bulkSeedLedger(
  db: Db,
  targetTotal: number,
  onProgress?: (progress: BulkSeedProgress) => void,
): Promise<number> {
  const { missing, last } = await shortfall(db, targetTotal, "wallet_transactions", sql`max(id)`);
  if (missing <= 0) return 0;
  const holders = (
    await db.execute<{ userId: number }>(sql`
      select w.user_id as "userId" from wallets w
      where not exists (select 1 from wallet_transactions t where t.user_id = w.user_id)
      order by w.user_id`)
  ).rows.map((row) => row.userId);
  if (holders.length === 0) {
    throw new Error("Every wallet has ledger rows already: seed more users first");
  }
  const layout = { idBase: last, each: Math.floor(missing / holders.length) };
  const extra = missing % holders.length; // the first `extra` wallets get one row more
  const rowsBefore = (wallet: number) => wallet * layout.each + Math.min(wallet, extra);
  const walletsPerChunk = Math.max(1, Math.floor(CHUNK / Math.max(layout.each, 1)));
  await db.transaction(async (tx) => {
    await tx.execute(NO_JIT);
    await withoutSecondaryStructures(tx, "wallet_transactions", async () => {
      for (let first = 0; first < holders.length; first += walletsPerChunk) {
        const end = Math.min(first + walletsPerChunk, holders.length);
        if (rowsBefore(first) === missing) break;
        await tx.execute(
          insertLedger({ ...layout, extra, first, userIds: holders.slice(first, end) }),
        );
        await tx.execute(sql`
          update wallets w set balance_sen = t.balance_after_sen, ledger_hash = t.hash
          from (select distinct on (user_id) user_id, balance_after_sen, hash from wallet_transactions
                where id > ${layout.idBase + rowsBefore(first)} order by user_id, id desc) as t
          where w.user_id = t.user_id`);
        onProgress?.({ inserted: rowsBefore(end), target: missing });
      }
    });
    await tx.execute(sql`
      select setval(pg_get_serial_sequence('wallet_transactions', 'id'), max(id))
      from wallet_transactions`);
  });
  await rebuildLedgerRollups(db);
  await db.execute(sql`vacuum analyze wallet_transactions`);
  await db.execute(sql`vacuum analyze wallets`);
  await db.execute(sql`vacuum analyze merchant_days`);
  await db.execute(sql`vacuum analyze top_up_days`);
  await db.execute(sql`vacuum analyze active_user_days`);
  return missing;
}

/**
 * Runs a bulk load of `table` with its secondary indexes and its foreign keys set aside, then
 * puts them back as they were (their statistics targets too), inside the caller's transaction, so
 * a failed load leaves them as they were. Building an index once after the load is several times
 * cheaper than growing it row by row (measured on PostgreSQL 15, 200,000 ledger rows: 32 s with
 * every index, 3.5 s without the trigram and the four secondary btree indexes, which then build in
 * 6 s), and one check of a foreign key over the whole table is cheaper than one lookup a row.
 * The primary key and the unique constraints stay: they keep the load honest.
 */
async function withoutSecondaryStructures(tx: Tx, table: string, load: () => Promise<void>) {
  const { rows: indexes } = await tx.execute<{ name: string; definition: string }>(sql`
    select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
    from pg_index i
    where i.indrelid = ${table}::regclass
      and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`);
  const { rows: statistics } = await tx.execute<{ name: string; column: number; target: number }>(
    sql`
      select a.attrelid::regclass::text as name, a.attnum as column, a.attstattarget as target
      from pg_attribute a join pg_index i on i.indexrelid = a.attrelid
      where i.indrelid = ${table}::regclass and a.attstattarget > 0`,
  );
  const { rows: foreignKeys } = await tx.execute<{ name: string; definition: string }>(sql`
    select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
    where conrelid = ${table}::regclass and contype = 'f'`);
  const alter = sql`alter table ${sql.identifier(table)}`;
  for (const { name } of foreignKeys) {
    await tx.execute(sql`${alter} drop constraint ${sql.identifier(name)}`);
  }
  for (const { name } of indexes) await tx.execute(sql.raw(`drop index ${name}`));
  await load();
  await tx.execute(sql`set local maintenance_work_mem = '256MB'`);
  for (const { definition } of indexes) await tx.execute(sql.raw(definition));
  for (const { name, column, target } of statistics) {
    if (!indexes.some((index) => index.name === name)) continue;
    await tx.execute(
      sql.raw(`alter index ${name} alter column ${column} set statistics ${target}`),
    );
  }
  for (const { name, definition } of foreignKeys) {
    await tx.execute(sql`${alter} add constraint ${sql.identifier(name)} ${sql.raw(definition)}`);
  }
}

/**
 * The ledger rows of the wallets `userIds` (in order of user id), which are the wallets from
 * number `first` on of those bulkSeedLedger fills: each gets `each` rows, one more when its number
 * is below `extra`; rows are numbered on from `idBase` in that order. A row's choices hash its id.
 */
function insertLedger(chunk: {
  userIds: number[];
  first: number;
  idBase: number;
  each: number;
  extra: number;
}) {
  const { userIds, first, idBase, each, extra } = chunk;
  const h = (k: number) => hash("id", k);
  const topUpSen = (k: number) =>
    sql`(array[1000, 2000, 3000, 5000, 5000, 10000, 10000, 20000])[1 + ${h(k)} % 8]`;
  const channel = sql`case when ${h(1)} % 100 < 45 then 'fpx' when ${h(1)} % 100 < 65 then 'card'
                           when ${h(1)} % 100 < 85 then 'agent' else 'counter' end`;
  return sql`
    with holders as (
      select u.id as user_id, u.account_number, u.created_at as opened,
             ${first}::int + row_number() over (order by u.id)::int - 1 as wallet
      from users u join wallets w on w.user_id = u.id
      where u.id = any(${sql.param(userIds)}::int[])
    ),
    slots as (
      select h.user_id, h.account_number, k, (k - 1) / 10 as block, (k - 1) % 10 + 1 as slot,
             numbered.id, k < own_rows as followed,
             h.opened + (now() - h.opened) * ((k - 1) + ${hash("numbered.id", 0)} / 1000003.0)
               / own_rows as created_at
      from holders h,
           lateral (select ${each}::int + (h.wallet < ${extra})::int as own_rows) as counted,
           lateral generate_series(1, own_rows) as k,
           lateral (select ${idBase}::int + h.wallet * ${each}::int + least(h.wallet, ${extra}::int)
                           + k as id) as numbered
    ),
    chosen as (
      select s.*, ${channel} as channel, ${topUpSen(2)} as top_up_sen,
             ${h(3)} % 100 as fate,
             ${h(4)} % 25 = 0 as undone,
             upper(substr(translate(encode(decode(md5(id::text), 'hex'), 'base64'), '+/', 'KQ'),
                          1, 10)) as random_ref
      from slots s
    ),
    typed as (
      select c.*,
             case when slot <= 2 then 'top_up'
                  when slot = 3 and lag(undone and channel in ('agent', 'counter'))
                    over holder then 'reversal'
                  when slot = 3 then 'top_up' else 'payment' end as type,
             case when slot > 1 and channel = 'fpx' and fate < 3 then 'failed'
                  when slot > 1 and channel = 'fpx' and fate < 15
                    and created_at > now() - interval '1 day' then 'pending'
                  when slot = 2 and channel in ('agent', 'counter') and undone and followed
                    then 'reversed'
                  else 'success' end as top_up_status,
             lag(top_up_sen) over holder as previous_sen
      from chosen c
      window holder as (partition by user_id order by k)
    ),
    stated as (
      select t.*,
             case when type = 'top_up' then top_up_status else 'success' end as status,
             case type when 'top_up' then top_up_sen when 'reversal' then -previous_sen end as sen
      from typed t
    ),
    credited as (
      select s.*,
             sum(case when type = 'top_up' and status = 'success' then sen else 0 end)
               over (partition by user_id, block) as credit
      from stated s
    ),
    priced as (
      select c.*,
             coalesce(sen, -greatest(10, credit * (60 + ${h(5)} % 39) / 7000 * 10)) as amount_sen,
             case type when 'top_up' then 'TU' when 'reversal' then 'RV' else 'PY' end
               || to_char(created_at at time zone 'UTC', 'YYYYMMDD') || random_ref as own_ref
      from credited c
    ),
    ledger as (
      select p.*,
             sum(case when status in ('success', 'reversed') then amount_sen else 0 end)
               over holder as balance_after_sen,
             case when type = 'reversal' then 'RV' || lag(own_ref) over holder
                  else own_ref end as reference
      from priced p
      window holder as (partition by user_id order by k)
    ),
    shops as (
      select array_agg(id order by id) as ids, array_agg(fee_rate_bp order by id) as rates
      from businesses where status in ('approved', 'suspended')
    ),
    staff as (
      select (select array_agg(user_id order by user_id) from agents) as agents,
             (select array_agg(id order by id) from administrators) as admins
    )
    insert into wallet_transactions (id, user_id, type, amount_sen, balance_after_sen, channel,
                                     business_id, agent_user_id, status, reference, reverses_id,
                                     remark, admin_id, search_text, fee_sen, created_at, hash)
    overriding system value
    -- Each wallet's chain (docs/integrity.md), from its first row: these wallets had none.
    select r.*,
           -- Cast as the insert stores them (the sums are numeric), so the digest is the row's.
           chain_fold(null::bytea, ledger_digest(r.id::bigint, r.user_id::bigint, r.type,
             r.amount_sen::bigint, r.balance_after_sen::bigint, r.channel,
             r.business_id::bigint, r.agent_user_id::bigint, r.reference,
             r.reverses_id::bigint, r.fee_sen::bigint, r.remark, r.admin_id::bigint,
             r.search_text, r.created_at))
             over (partition by r.user_id order by r.id rows unbounded preceding)
    from (
    select l.id, l.user_id, l.type, l.amount_sen, l.balance_after_sen,
           case when l.type = 'top_up' then l.channel end as channel,
           case when l.type = 'payment' then shops.ids[shop.i] end as business_id,
           case when l.type = 'top_up' and l.channel = 'agent'
                then staff.agents[1 + ${h(7)} % cardinality(staff.agents)] end as agent_user_id,
           l.status, l.reference,
           case when l.type = 'reversal' then l.id - 1 end as reverses_id,
           case when l.type = 'reversal'
                then (array['Keyed in twice', 'Credited to the wrong wallet',
                            'Cash not received'])[1 + ${h(8)} % 3] end as remark,
           case when l.type = 'reversal' or (l.type = 'top_up' and l.channel = 'counter')
                then staff.admins[1 + ${h(9)} % cardinality(staff.admins)] end as admin_id,
           lower(l.reference || chr(31) || l.account_number) as search_text,
           -- feeOfPayment (src/shared/money.ts): the shop's rate, rounded half up to the sen
           case when l.type = 'payment' then (-l.amount_sen * shops.rates[shop.i] + 5000) / 10000 end
             as fee_sen,
           l.created_at
    from ledger l, shops, staff,
         lateral (select 1 + ${h(6)} % cardinality(shops.ids) as i) as shop) r`;
}

/**
 * A cheap integer hash (0 to 1,000,002) of an integer column, one multiplier per k: the seeds'
 * deterministic choices.
 */
function hash(column: string, k: number): SQL {
  return sql.raw(`((${column}::bigint * ${2654435761 + k * 15838}) % 1000003)`);
}

/**
 * Users numbered start..end. `h(k)` is a cheap integer hash of the number n, one multiplier per k
 * (a shared multiplier with a per-k offset made h(1) and h(10) move together, so the newest users
 * all had the same few names),
 * that picks names, role (40% student, 15% staff, 15% public, 10% each merchant, rider, agent),
 * approval (70% approved, 20% pending, 10% rejected) and dates over the last 640 days.
 */
function insertUsers(start: number, end: number) {
  const h = (k: number) => hash("n", k);
  return sql`
    insert into users (account_number, name, email, phone, role, approval_status, approval_remark,
                       is_banned, ban_remark, is_vip, last_active_at, created_at, updated_at)
    select 'W' || lpad(n::text, ${ACCOUNT_NUMBER_DIGITS}::int, '0'),
           first_name || ' ' || last_name,
           lower(replace(first_name, ' ', '')) || '.' || lower(last_name) || n || '@mail.example',
           '+601' || (${h(3)} % 10) || lpad((${h(4)} % 10000000)::text, 7, '0'),
           role, approval, case when approval = 'rejected' then 'Details do not match records' end,
           banned, case when banned then 'Suspicious top-ups' end,
           approval = 'approved' and ${h(5)} % 100 < 6,
           case when approval = 'approved'
                then least(now(), created + (${h(6)} % 600) * interval '1 day') end,
           created, created
    from (
      select n,
             (array['Ahmad', 'Nur Aisyah', 'Wei Ling', 'Rajesh', 'Siti', 'Jia Hui', 'Muhammad',
                    'Priya', 'Kok Wai', 'Farah', 'Hafiz', 'Mei Xin'])[1 + ${h(1)} % 12] as first_name,
             (array['Abdullah', 'Tan', 'Lim', 'Kumar', 'Wong', 'Ismail', 'Lee', 'Ng', 'Rahman',
                    'Chong'])[1 + ${h(2)} % 10] as last_name,
             case when ${h(7)} % 100 < 40 then 'student' when ${h(7)} % 100 < 55 then 'staff'
                  when ${h(7)} % 100 < 70 then 'public' when ${h(7)} % 100 < 80 then 'merchant'
                  when ${h(7)} % 100 < 90 then 'rider' else 'agent' end as role,
             case when ${h(8)} % 100 < 70 then 'approved' when ${h(8)} % 100 < 90 then 'pending'
                  else 'rejected' end as approval,
             ${h(8)} % 100 < 70 and ${h(9)} % 100 < 4 as banned,
             now() - (${h(10)} % 640) * interval '1 day' - (${h(11)} % 86400) * interval '1 second'
               as created
      from generate_series(${start}::int, ${end}::int) as n
    ) as generated
    on conflict (account_number) do nothing`;
}
