import { count, eq, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { drizzle } from "drizzle-orm/node-postgres";

import { MIGRATIONS_FOLDER, openDatabase, type DbOrTx } from "../../server/db";
import { executePrepared, MAX_PREPARED_TEXTS } from "../../server/db/prepared";
import {
  administrators,
  agents,
  auditLog,
  businesses,
  changeContactSubmissions,
  globalSettings,
  riders,
  settlements,
  users,
  wallets,
  walletTransactions,
} from "../../server/db/schema";
import { DataDirLockedError } from "../../server/db/lock";
import { seedDatabase } from "../../server/seed/seed";
import { bulkSeedBusinesses, bulkSeedLedger, bulkSeedUsers } from "../../server/seed/bulk-seed";
import { createTestDatabase, POSTGRES_URL, type TestDatabase } from "./support/database";

let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterAll(async () => {
  await testDb?.destroy();
});

/** How many rows a table holds. */
async function countOf(table: PgTable) {
  const [row] = await testDb.database.db.select({ n: count() }).from(table);
  return row?.n ?? 0;
}

/** Row counts of every seeded table plus a digest of the users, to compare two states. */
async function snapshot() {
  const db = testDb.database.db;
  const [digest] = (
    await db.execute<{ md5: string }>(
      sql`select md5(string_agg(account_number || name || role || approval_status, ',' order by account_number)) as md5 from users`,
    )
  ).rows;
  return {
    administrators: await countOf(administrators),
    users: await countOf(users),
    wallets: await countOf(wallets),
    riders: await countOf(riders),
    agents: await countOf(agents),
    submissions: await countOf(changeContactSubmissions),
    settings: await countOf(globalSettings),
    audit: await countOf(auditLog),
    digest: digest?.md5,
  };
}

describe("the seeded data set", () => {
  it("holds the demo administrators with their permissions and statuses", async () => {
    const rows = await testDb.database.db
      .select()
      .from(administrators)
      .where(sql`${administrators.email} like '%@wallet.example'`);
    const byEmail = new Map(rows.map((row) => [row.email, row]));
    const superAdmin = byEmail.get("superadmin@wallet.example");
    expect(superAdmin?.isSuperAdmin).toBe(true);
    expect(superAdmin?.permissions).toEqual([0, 4, 8, 12, 16, 20, 24, 28, 32, 33, 35, 37, 38, 39]);
    expect(byEmail.get("userdesk@wallet.example")?.permissions).toEqual([0]);
    expect(byEmail.get("finance@wallet.example")?.permissions).toEqual([33, 35, 37]);
    expect(byEmail.get("banned@wallet.example")?.status).toBe("banned");
    // At the suite's PASSWORD_HASH_COST (support/database.ts; the default is password.test.ts's).
    expect(superAdmin?.passwordHash).toMatch(/^scrypt\$1024\$8\$1\$[\w-]+\$[\w-]+$/);
    // They have signed in before (the Admin list's "Last login"), but the banned login and the
    // newest colleague, who never have.
    const never = rows.filter((row) => row.lastLoginAt === null).map((row) => row.email);
    expect(never.sort()).toEqual(["banned@wallet.example", "zara.ong@wallet.example"]);
  });

  it("holds at least 500 users across every role and approval state, each with a wallet", async () => {
    const db = testDb.database.db;
    const combos = await db
      .select({ role: users.role, status: users.approvalStatus, n: count() })
      .from(users)
      .groupBy(users.role, users.approvalStatus);
    expect(combos).toHaveLength(18);
    const total = combos.reduce((sum, row) => sum + row.n, 0);
    expect(total).toBeGreaterThanOrEqual(500);
    const [withoutWallet] = await db
      .select({ n: count() })
      .from(users)
      .leftJoin(wallets, eq(wallets.userId, users.id))
      .where(sql`${wallets.id} is null`);
    expect(withoutWallet?.n).toBe(0);
  });

  it("has rider details for every rider (some pending) and agent details for every agent", async () => {
    const db = testDb.database.db;
    const [riderUsers] = await db.select({ n: count() }).from(users).where(eq(users.role, "rider"));
    const [riderRows] = await db.select({ n: count() }).from(riders);
    expect(riderRows?.n).toBe(riderUsers?.n);
    const [pending] = await db
      .select({ n: count() })
      .from(riders)
      .where(eq(riders.verificationStatus, "pending"));
    expect(pending?.n).toBeGreaterThan(0);
    const [agentUsers] = await db.select({ n: count() }).from(users).where(eq(users.role, "agent"));
    const [agentRows] = await db.select({ n: count() }).from(agents);
    expect(agentRows?.n).toBe(agentUsers?.n);
  });

  it("has pending and decided change-contact submissions and the support e-mail", async () => {
    const db = testDb.database.db;
    const statuses = await db
      .selectDistinct({ status: changeContactSubmissions.status })
      .from(changeContactSubmissions);
    expect(statuses.map((s) => s.status).sort()).toEqual(["approved", "pending", "rejected"]);
    const [setting] = await db
      .select()
      .from(globalSettings)
      .where(eq(globalSettings.key, "supportEmail"));
    expect(setting?.value).toBe("superadmin@wallet.example");
  });

  it("is seeded once: running the seed again changes nothing", async () => {
    const before = await snapshot();
    const report = await seedDatabase(testDb.database.db, testDb.config());
    expect(report).toEqual({ bootstrapAdmin: false, demo: false });
    expect(await snapshot()).toEqual(before);
  });
});

describe("the schema's guarantees", () => {
  it("refuses a second administrator whose e-mail differs only in case", async () => {
    const insert = testDb.database.db.insert(administrators).values({
      name: "Shadow",
      email: "SuperAdmin@Wallet.Example",
      passwordHash: "x",
    });
    await expect(insert).rejects.toThrow();
  });

  it("keeps the audit trail append-only", async () => {
    const db = testDb.database.db;
    await db.insert(auditLog).values({
      adminId: null,
      action: "test.append",
      targetTable: "nothing",
      targetId: "0",
    });
    await expect(db.update(auditLog).set({ remark: "rewritten" })).rejects.toThrow();
    await expect(db.delete(auditLog)).rejects.toThrow();
  });

  it("keeps the ledger append-only: no row deleted or emptied, of a row only its status changed", async () => {
    const db = testDb.database.db;
    const [row] = await db.select().from(walletTransactions).limit(1);
    expect(row).toBeDefined();
    const one = eq(walletTransactions.id, row!.id);
    await expect(db.delete(walletTransactions).where(one)).rejects.toThrow();
    await expect(db.execute(sql`truncate wallet_transactions cascade`)).rejects.toThrow();
    await expect(
      db
        .update(walletTransactions)
        .set({ amountSen: row!.amountSen + 1 })
        .where(one),
    ).rejects.toThrow();
    const [kept] = await db.select().from(walletTransactions).where(one);
    expect(kept).toEqual(row);
  });

  it("keeps every settlement: none deleted or emptied, so its items always name it", async () => {
    const db = testDb.database.db;
    const [row] = await db.select().from(settlements).limit(1);
    expect(row).toBeDefined();
    const one = eq(settlements.id, row!.id);
    const refused = (operation: string) => ({
      cause: expect.objectContaining({
        message: `settlements are kept: ${operation} is not allowed`,
      }),
    });
    await expect(db.delete(settlements).where(one)).rejects.toMatchObject(refused("DELETE"));
    await expect(db.execute(sql`truncate settlements cascade`)).rejects.toMatchObject(
      refused("TRUNCATE"),
    );
    expect(await db.select().from(settlements).where(one)).toEqual([row]);
  });

  it("keeps agent commission rates between 0 and 10000 basis points", async () => {
    const db = testDb.database.db;
    const [agent] = await db.select().from(agents).limit(1);
    expect(agent).toBeDefined();
    await expect(
      db.update(agents).set({ commissionRateBp: 10_001 }).where(eq(agents.userId, agent!.userId)),
    ).rejects.toThrow();
  });
});

describe("bulk seeding", () => {
  it("adds users with set-based SQL up to a total, deterministically and only once", async () => {
    const db = testDb.database.db;
    const target = (await countOf(users)) + 250;
    expect(await bulkSeedUsers(db, target)).toBe(250);
    expect(await bulkSeedUsers(db, target)).toBe(0);
    expect(await countOf(users)).toBe(target);
    const [orphans] = await db
      .select({ n: count() })
      .from(users)
      .leftJoin(wallets, eq(wallets.userId, users.id))
      .where(sql`${wallets.id} is null`);
    expect(orphans?.n).toBe(0);
  });

  it("grows merchants and the ledger, each wallet's balance the sum of its ledger, indexes kept", async () => {
    const db = testDb.database.db;
    const structure = async () =>
      (
        await db.execute<{ definition: string }>(sql`
          select pg_get_indexdef(indexrelid) as definition from pg_index
          where indrelid = 'wallet_transactions'::regclass
          union all
          select pg_get_constraintdef(oid) from pg_constraint
          where conrelid = 'wallet_transactions'::regclass
          order by 1`)
      ).rows;
    const before = await structure();
    const shops = (await countOf(businesses)) + 12;
    expect(await bulkSeedBusinesses(db, shops)).toBe(12);
    expect(await bulkSeedBusinesses(db, shops)).toBe(0);
    const target = (await countOf(walletTransactions)) + 3_007;
    expect(await bulkSeedLedger(db, target)).toBe(3_007);
    expect(await bulkSeedLedger(db, target)).toBe(0);
    expect(await countOf(walletTransactions)).toBe(target);
    expect(await structure()).toEqual(before);
    const { rows: broken } = await db.execute(sql`
      select w.user_id from wallets w
      where w.balance_sen <> (select coalesce(sum(t.amount_sen), 0) from wallet_transactions t
                              where t.user_id = w.user_id and t.status in ('success', 'reversed'))
      union all
      select user_id from (
        select user_id, balance_after_sen, sum(amount_sen) filter
                 (where status in ('success', 'reversed')) over (partition by user_id order by id)
                 as running
        from wallet_transactions) as rows
      where balance_after_sen <> running
      union all
      select r.user_id from wallet_transactions r join wallet_transactions t on t.id = r.reverses_id
      where r.type = 'reversal'
        and (t.type <> 'top_up' or t.status <> 'reversed' or r.amount_sen <> -t.amount_sen
             or r.user_id <> t.user_id)
      union all
      -- A payment's refunds go back to its payer, together at most its amount.
      select t.user_id from wallet_transactions r join wallet_transactions t on t.id = r.reverses_id
      where r.type = 'refund'
      group by t.id, t.user_id, t.type, t.amount_sen
      having t.type <> 'payment' or sum(r.amount_sen) > -t.amount_sen
         or bool_or(r.user_id <> t.user_id)`);
    expect(broken).toEqual([]);
    // A new top-up gets the next id (the identity was moved past the seeded rows).
    const [next] = (
      await db.execute<{ id: number; last: number }>(sql`
        select nextval(pg_get_serial_sequence('wallet_transactions', 'id'))::int as id,
               (select max(id) from wallet_transactions)::int as last`)
    ).rows;
    expect(next?.id).toBe((next?.last ?? 0) + 1);
  });
});

describe("persistence", () => {
  it("keeps committed data across close and reopen", async () => {
    await testDb.database.db
      .insert(globalSettings)
      .values({ key: "persistenceProbe", value: { written: true } });
    const reopened = await testDb.reopen();
    const [row] = await reopened.db
      .select()
      .from(globalSettings)
      .where(eq(globalSettings.key, "persistenceProbe"));
    expect(row?.value).toEqual({ written: true });
  });
});

describe("an upgrade of an existing store", () => {
  // Drizzle's migrator applies only migrations created after the newest one applied (by the
  // journal's `when`): one dated earlier would be skipped on every existing store, silently.
  it("finds every migration dated after the one before it", async () => {
    const journal = JSON.parse(
      await readFile(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8"),
    ) as { entries: Array<{ tag: string; when: number }> };
    const misdated = journal.entries.filter(
      (entry, index) => index > 0 && entry.when <= journal.entries[index - 1]!.when,
    );
    expect(misdated.map((entry) => entry.tag)).toEqual([]);
  });

  it("ends with a VACUUM, so a table a migration rewrote keeps its index-only scans", async () => {
    const work = await mkdtemp(join(tmpdir(), "ucsi-wallet-upgrade-"));
    try {
      // The store as it was before migration 0023 rewrote users (its stored search key).
      const older = join(work, "migrations");
      await cp(MIGRATIONS_FOLDER, older, { recursive: true });
      const journalFile = join(older, "meta", "_journal.json");
      const journal = JSON.parse(await readFile(journalFile, "utf8")) as {
        entries: Array<{ tag: string }>;
      };
      journal.entries = journal.entries.filter((entry) => entry.tag < "0023");
      await writeFile(journalFile, JSON.stringify(journal));
      const dataDir = join(work, "data");
      const before = await openDatabase({ dataDir, migrationsFolder: older });
      await before.pool.query(`insert into users (account_number, name, role)
        select 'W' || lpad(n::text, 9, '0'), 'User ' || n, 'student' from generate_series(1, 2000) n`);
      await before.pool.query("vacuum analyze users");
      await before.close();

      const upgraded = await openDatabase({ dataDir });
      try {
        const { rows } = await upgraded.pool.query<{ visible: number; pages: number }>(
          "select relallvisible as visible, relpages as pages from pg_class where relname = 'users'",
        );
        expect(rows[0]!.pages).toBeGreaterThan(1);
        expect(rows[0]!.visible).toBe(rows[0]!.pages);
      } finally {
        await upgraded.close();
      }
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});

describe.skipIf(POSTGRES_URL !== undefined)("the DATA_DIR lock (embedded store)", () => {
  it("refuses a second open of a DATA_DIR that is in use, naming the holder", async () => {
    const attempt = openDatabase({ dataDir: testDb.dataDir });
    await expect(attempt).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(attempt).rejects.toThrow(
      `DATA_DIR ${testDb.dataDir} is in use by another process (pid ${process.pid})`,
    );
    // The refused attempt must not have disturbed the open store.
    const [row] = await testDb.database.db.select({ n: count() }).from(administrators);
    expect(row?.n).toBeGreaterThan(0);
  });
});

describe("prepared statements", () => {
  it("prepares at most MAX_PREPARED_TEXTS texts a process, and runs any further one unnamed", async () => {
    // One connection, so that every statement lands on it (the embedded store has one anyway).
    const client = await testDb.database.pool.connect();
    try {
      const db = drizzle({ client }) as unknown as DbOrTx;
      // Texts a client could choose (as a list's sort): each differs, so each would be prepared.
      for (let i = 0; i < MAX_PREPARED_TEXTS + 20; i++) {
        const { rows } = await executePrepared<{ n: number }>(
          db,
          sql`select ${sql.raw(String(i))}::int + ${1}::int as n`,
        );
        expect(rows[0]!.n).toBe(i + 1);
      }
      const { rows } = await client.query<{ n: number }>(
        "select count(*)::int as n from pg_prepared_statements where name like 'q\\_%'",
      );
      expect(rows[0]!.n).toBeGreaterThan(0);
      expect(rows[0]!.n).toBeLessThanOrEqual(MAX_PREPARED_TEXTS);
    } finally {
      client.release();
    }
  });
});
