/**
 * The seeded ledger's reversals and refunds name the row they undo (issue 30: 85 reversals of the
 * demo data had no reverses_id, their top-up being inserted by the same statement): each reversal
 * a reversed top-up of its wallet and amount, each refund a payment of its wallet and business,
 * together at most its amount; and every reversed top-up has its reversal. The same holds after
 * the bulk seed adds its rows.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";

import type { Db } from "../../server/db";
import { bulkSeedLedger, bulkSeedUsers } from "../../server/seed/bulk-seed";
import { createTestDatabase, type TestDatabase } from "./support/database";

let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterAll(async () => {
  await testDb?.destroy();
});

/** Each row that breaks the links, with why. */
async function brokenLinks(db: Db) {
  const { rows } = await db.execute<{ id: number; problem: string }>(sql`
    select r.id, 'no reverses_id' as problem from wallet_transactions r
    where r.type in ('reversal', 'refund') and r.reverses_id is null
    union all
    select r.id, 'not its top-up' from wallet_transactions r
    join wallet_transactions t on t.id = r.reverses_id
    where r.type = 'reversal'
      and (t.type <> 'top_up' or t.status <> 'reversed' or t.user_id <> r.user_id
           or t.amount_sen <> -r.amount_sen)
    union all
    select t.id, 'a reversed top-up without one reversal' from wallet_transactions t
    where t.type = 'top_up' and t.status = 'reversed'
      and (select count(*) from wallet_transactions r
           where r.reverses_id = t.id and r.type = 'reversal') <> 1
    union all
    select t.id, 'refunds not of one payment of theirs' from wallet_transactions r
    join wallet_transactions t on t.id = r.reverses_id
    where r.type = 'refund'
    group by t.id, t.type, t.amount_sen
    having t.type <> 'payment' or sum(r.amount_sen) > -t.amount_sen
       or bool_or(r.user_id <> t.user_id or r.business_id is distinct from t.business_id)
    order by 1`);
  return rows;
}

it("links every seeded reversal to its top-up and every refund to its payment", async () => {
  const db = testDb.database.db;
  const { rows: counts } = await db.execute<{ reversals: number; refunds: number }>(sql`
    select count(*) filter (where type = 'reversal')::int as reversals,
           count(*) filter (where type = 'refund')::int as refunds
    from wallet_transactions`);
  expect(counts[0]?.reversals).toBeGreaterThan(0);
  expect(counts[0]?.refunds).toBeGreaterThan(0);
  expect(await brokenLinks(db)).toEqual([]);
});

it("keeps them linked when the bulk seed adds rows", async () => {
  const db = testDb.database.db;
  const countOf = async (table: string) =>
    (await db.execute<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table)}`))
      .rows[0]!.n;
  // The bulk ledger goes to wallets without rows: new users' (the bulk users).
  await bulkSeedUsers(db, (await countOf("users")) + 200);
  expect(await bulkSeedLedger(db, (await countOf("wallet_transactions")) + 2_000)).toBe(2_000);
  expect(await brokenLinks(db)).toEqual([]);
});
