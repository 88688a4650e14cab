import { sql } from "drizzle-orm";

import type { Db } from "./index";

/** Rows per INSERT … SELECT generate_series: large enough to be fast, small enough for PGlite. */
const CHUNK = 50_000;

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
  const [state] = (
    await db.execute<{ total: number; last: number }>(sql`
      select count(*)::int as total,
             coalesce(max(substring(account_number from 2)::int)
               filter (where account_number ~ '^W[0-9]{9}$'), 0)::int as last
      from users`)
  ).rows;
  const missing = targetTotal - (state?.total ?? 0);
  if (missing <= 0) return 0;

  const first = (state?.last ?? 0) + 1;
  const lastNumber = first + missing - 1;
  for (let start = first; start <= lastNumber; start += CHUNK) {
    const end = Math.min(start + CHUNK - 1, lastNumber);
    await db.transaction(async (tx) => {
      await tx.execute(insertUsers(start, end));
      const from = `W${String(start).padStart(9, "0")}`;
      const to = `W${String(end).padStart(9, "0")}`;
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
 * Users numbered start..end. `h(k)` is a cheap integer hash of the number n, one multiplier per k
 * (a shared multiplier with a per-k offset made h(1) and h(10) move together, so the newest users
 * all had the same few names),
 * that picks names, role (40% student, 15% staff, 15% public, 10% each merchant, rider, agent),
 * approval (70% approved, 20% pending, 10% rejected) and dates over the last 640 days.
 */
function insertUsers(start: number, end: number) {
  const h = (k: number) => sql.raw(`((n::bigint * ${2654435761 + k * 15838}) % 1000003)`);
  return sql`
    insert into users (account_number, name, email, phone, role, approval_status, approval_remark,
                       is_banned, ban_remark, is_vip, last_active_at, created_at, updated_at)
    select 'W' || lpad(n::text, 9, '0'),
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
