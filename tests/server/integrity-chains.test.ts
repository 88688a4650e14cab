/**
 * The tamper-evident chains (issue 34, docs/integrity.md) through HTTP on a real database: writes
 * through the API are chained, a seeded database verifies, rows edited, deleted or inserted behind
 * the application's back (as the database owner, triggers off) are found and named, a signed export
 * checks offline with scripts/verify-export.mjs and a tampered one does not, and many concurrent
 * audited writes still verify.
 */
import { execFile } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { recordAudit } from "../../server/audit";
import { businessDayOf } from "../../server/business-day";
import { loadConfig } from "../../server/config";
import type { Db } from "../../server/db";
import {
  AUDIT_FIELDS,
  canonicalColumns,
  digestOf,
  LEDGER_FIELDS,
  linkOf,
  ZERO_HASH,
} from "../../server/integrity/canonical";
import { signerOf } from "../../server/integrity/signing";
import { topUpWallet } from "../../server/services/ledger";
import { createAdmin, DEMO, login } from "./support/app";
import { call, insertWalletUser, useUserDeskSuite } from "./support/user-fixtures";

const run = promisify(execFile);
const suite = useUserDeskSuite();
let superToken = "";
let viewer = ""; // Admin (8) only
let noAdmin = ""; // Top Up (33) only
const work = mkdtempSync(join(tmpdir(), "integrity-chains-"));

type Break = { table: string; chain: string; rowId: number | null; kind: string };
type Answer = {
  running: boolean;
  latest: { status: string; rowsChecked: number; breaks: Break[] } | null;
};

async function verify(token = superToken) {
  const response = await call(suite.app, token, "POST", "/api/integrity/verification");
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Answer>().latest!;
}

/** Runs `change` as the database owner with every trigger off (what an intruder with access does). */
async function behindTheBack(change: (db: Db) => Promise<unknown>) {
  await suite.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await change(tx as unknown as Db);
  });
}

async function topUps(accountNumber: string, count: number) {
  for (let i = 0; i < count; i += 1) {
    const response = await call(suite.app, superToken, "POST", "/api/top-up-transactions", {
      accountNumber,
      amountSen: 1_000 + i * 100,
      channel: "counter",
    });
    expect(response.statusCode, response.body).toBe(201);
  }
}

const rowsOf = async (userId: number) =>
  (
    await suite.db.execute<{ id: number; hash: Buffer }>(
      sql`select id, hash from wallet_transactions where user_id = ${userId} order by id`,
    )
  ).rows;

let wallet = { id: 0, accountNumber: "" };

beforeAll(async () => {
  superToken = (await login(suite.app, DEMO.superAdmin)).token;
  viewer = (await createAdmin(suite.app, superToken, [8])).token;
  noAdmin = (await createAdmin(suite.app, superToken, [33])).token;
  const user = await insertWalletUser(suite.db);
  wallet = { id: user.id, accountNumber: user.accountNumber };
  await topUps(wallet.accountNumber, 4);
});

describe("writing", () => {
  it("chains each ledger row to its wallet's previous one, the wallet holding the head", async () => {
    const { rows } = await suite.db.execute<Record<string, string | null> & { hash: Buffer }>(sql`
      select t.hash, ${canonicalColumns(LEDGER_FIELDS, "t")} from wallet_transactions t
      where t.user_id = ${wallet.id} order by t.id`);
    expect(rows).toHaveLength(4);
    let previous = ZERO_HASH;
    for (const row of rows) {
      const link = linkOf(previous, digestOf(LEDGER_FIELDS, row));
      expect(row.hash.toString("hex")).toBe(link.toString("hex"));
      previous = link;
    }
    const [head] = (
      await suite.db.execute<{ hash: Buffer }>(
        sql`select ledger_hash as hash from wallets where user_id = ${wallet.id}`,
      )
    ).rows;
    expect(head!.hash.equals(previous)).toBe(true);
  });

  it("chains audit entries by shard, the JavaScript encoding agreeing with the database's", async () => {
    await suite.db.transaction((tx) =>
      recordAudit(tx, {
        adminId: null,
        action: "integrity.test",
        targetTable: "users",
        targetId: wallet.id,
        remark: "Ünïcode 名字 \u0001",
        before: { z: 1, a: [1.5, "x"], m: { b: null, a: true } },
        after: { a: 1 },
      }),
    );
    const { rows } = await suite.db.execute<
      Record<string, string | null> & { hash: Buffer; previous: Buffer | null; seq: string }
    >(sql`
      select a.hash, a.chain_seq as seq,
             (select p.hash from audit_log p where p.chain_shard = a.chain_shard
              and p.chain_seq = a.chain_seq - 1) as previous,
             ${canonicalColumns(AUDIT_FIELDS, "a")}
      from audit_log a where a.action = 'integrity.test'`);
    const entry = rows[0]!;
    expect(JSON.parse(entry.before!)).toEqual({ z: 1, a: [1.5, "x"], m: { b: null, a: true } });
    const link = linkOf(entry.previous ?? ZERO_HASH, digestOf(AUDIT_FIELDS, entry));
    expect(entry.hash.toString("hex")).toBe(link.toString("hex"));
  });

  it("refuses to change a hash once set, even to the same wallet's", async () => {
    const [first, second] = await rowsOf(wallet.id);
    await expect(
      suite.db.execute(
        sql`update wallet_transactions set hash = ${second!.hash} where id = ${first!.id}`,
      ),
    ).rejects.toThrow();
    await expect(
      suite.db.execute(sql`update audit_log set hash = hash where hash is not null`),
    ).rejects.toThrow();
  });
});

describe("verification", () => {
  it("finds the seeded database and the API's writes intact, and records it signed", async () => {
    const result = await verify();
    expect(result.breaks).toEqual([]);
    expect(result.status).toBe("ok");
    expect(result.rowsChecked).toBeGreaterThan(100);
    const latest = await call(suite.app, viewer, "GET", "/api/integrity/verification");
    expect(latest.statusCode).toBe(200);
    expect(latest.json<Answer>().latest!.status).toBe("ok");
  });

  it("is for administrators holding Admin (8) only", async () => {
    for (const [method, url] of [
      ["GET", "/api/integrity/verification"],
      ["POST", "/api/integrity/verification"],
      ["GET", "/api/integrity/public-key"],
      [
        "GET",
        `/api/integrity/export?table=audit&from=${businessDayOf(new Date())}&to=${businessDayOf(new Date())}`,
      ],
    ] as const) {
      expect((await call(suite.app, noAdmin, method, url)).statusCode).toBe(403);
      expect((await suite.app.inject({ method, url: `/v1${url}` })).statusCode).toBe(401);
    }
  });

  it("names a ledger row edited behind the application's back", async () => {
    const rows = await rowsOf(wallet.id);
    await behindTheBack((db) =>
      db.execute(sql`update wallet_transactions set remark = 'changed' where id = ${rows[1]!.id}`),
    );
    const result = await verify();
    expect(result.breaks).toEqual([
      expect.objectContaining({ table: "wallet_transactions", rowId: rows[1]!.id, kind: "edited" }),
    ]);
    await behindTheBack((db) =>
      db.execute(sql`update wallet_transactions set remark = null where id = ${rows[1]!.id}`),
    );
    expect((await verify()).status).toBe("ok");
  });

  it("names a ledger row deleted in the middle, one deleted at the end, and one inserted", async () => {
    const rows = await rowsOf(wallet.id);
    const saved = async (id: number) =>
      (await suite.db.execute(sql`select * from wallet_transactions where id = ${id}`)).rows[0]!;
    const putBack = (row: Record<string, unknown>) =>
      behindTheBack((db) =>
        db.execute(sql`insert into wallet_transactions overriding system value
          select * from json_populate_record(null::wallet_transactions, ${JSON.stringify({
            ...row,
            hash: `\\x${(row.hash as Buffer).toString("hex")}`,
          })}::json)`),
      );

    const middle = await saved(rows[1]!.id);
    await behindTheBack((db) =>
      db.execute(sql`delete from wallet_transactions where id = ${rows[1]!.id}`),
    );
    expect((await verify()).breaks).toEqual([
      expect.objectContaining({ rowId: rows[2]!.id, kind: "deleted" }),
    ]);
    await putBack(middle);

    const last = await saved(rows[3]!.id);
    await behindTheBack((db) =>
      db.execute(sql`delete from wallet_transactions where id = ${rows[3]!.id}`),
    );
    expect((await verify()).breaks).toEqual([
      expect.objectContaining({
        chain: `wallet/${wallet.id}`,
        rowId: rows[2]!.id,
        kind: "deleted",
      }),
    ]);
    await putBack(last);
    expect((await verify()).status).toBe("ok");

    let forged: { id: number } | undefined;
    await behindTheBack(async (db) => {
      [forged] = (
        await db.execute<{ id: number }>(sql`
          insert into wallet_transactions (user_id, type, amount_sen, balance_after_sen, reference,
                                           search_text)
          values (${wallet.id}, 'adjustment', 100000, 100000, 'AJ-FORGED', 'aj-forged')
          returning id`)
      ).rows;
    });
    expect((await verify()).breaks).toEqual([
      expect.objectContaining({ rowId: forged!.id, kind: "inserted" }),
    ]);
    await behindTheBack((db) =>
      db.execute(sql`delete from wallet_transactions where id = ${forged!.id}`),
    );
    expect((await verify()).status).toBe("ok");

    // A row with a well-formed link after the last one, the wallet's head left where it was.
    let linked: { id: number } | undefined;
    await behindTheBack(async (db) => {
      [linked] = (
        await db.execute<{ id: number }>(sql`
          insert into wallet_transactions (id, user_id, type, amount_sen, balance_after_sen,
            reference, search_text, created_at, hash)
          overriding system value
          select n.id, w.user_id, 'adjustment', 500, w.balance_sen + 500, 'AJ-FORGED-2',
                 'aj-forged-2', '2026-01-01T00:00:00Z',
                 sha256(w.ledger_hash || ledger_digest(n.id, w.user_id, 'adjustment', 500,
                   w.balance_sen + 500, null, null, null, 'AJ-FORGED-2', null, null, null, null,
                   'aj-forged-2', '2026-01-01T00:00:00Z'::timestamptz))
          from wallets w, (select nextval('wallet_transactions_id_seq')::int as id) n
          where w.user_id = ${wallet.id}
          returning id`)
      ).rows;
    });
    expect((await verify()).breaks).toEqual([
      expect.objectContaining({
        chain: `wallet/${wallet.id}`,
        rowId: linked!.id,
        kind: "inserted",
      }),
    ]);
    await behindTheBack((db) =>
      db.execute(sql`delete from wallet_transactions where id = ${linked!.id}`),
    );
    expect((await verify()).status).toBe("ok");
  });

  it("names an audit entry edited, deleted, inserted, the newest deleted, and a head moved", async () => {
    const [entry] = (
      await suite.db.execute<{ id: number; shard: number; seq: string }>(sql`
        select id::int as id, chain_shard as shard, chain_seq as seq from audit_log
        where chain_shard = 0 and chain_seq > 1 order by chain_seq desc limit 1 offset 2`)
    ).rows;
    const saved = (await suite.db.execute(sql`select * from audit_log where id = ${entry!.id}`))
      .rows[0]!;
    await behindTheBack((db) =>
      db.execute(sql`update audit_log set remark = 'nothing happened' where id = ${entry!.id}`),
    );
    expect((await verify()).breaks).toEqual([
      expect.objectContaining({
        table: "audit_log",
        chain: "audit/0",
        rowId: entry!.id,
        kind: "edited",
      }),
    ]);
    await behindTheBack((db) =>
      db.execute(
        sql`update audit_log set remark = ${saved.remark as string | null} where id = ${entry!.id}`,
      ),
    );

    await behindTheBack((db) => db.execute(sql`delete from audit_log where id = ${entry!.id}`));
    const [next] = (
      await suite.db.execute<{ id: number }>(sql`
        select id::int as id from audit_log where chain_shard = 0 and chain_seq = ${Number(entry!.seq) + 1}`)
    ).rows;
    expect((await verify()).breaks).toEqual([
      expect.objectContaining({ chain: "audit/0", rowId: next!.id, kind: "deleted" }),
    ]);
    await behindTheBack((db) =>
      db.execute(sql`insert into audit_log overriding system value
        select * from json_populate_record(null::audit_log, ${JSON.stringify({
          ...saved,
          hash: `\\x${(saved.hash as Buffer).toString("hex")}`,
        })}::json)`),
    );
    expect((await verify()).status).toBe("ok");

    let forged: { id: number } | undefined;
    await behindTheBack(async (db) => {
      [forged] = (
        await db.execute<{ id: number }>(sql`
          insert into audit_log (admin_id, action, target_table, target_id)
          values (null, 'user.delete', 'users', '1') returning id::int as id`)
      ).rows;
    });
    expect((await verify()).breaks).toEqual([
      expect.objectContaining({ table: "audit_log", rowId: forged!.id, kind: "inserted" }),
    ]);
    await behindTheBack((db) => db.execute(sql`delete from audit_log where id = ${forged!.id}`));

    const [newest, before] = (
      await suite.db.execute<{ id: number }>(sql`
        select id::int as id from audit_log where chain_shard = 0 order by chain_seq desc limit 2`)
    ).rows;
    const newestRow = (
      await suite.db.execute(sql`select * from audit_log where id = ${newest!.id}`)
    ).rows[0]!;
    await behindTheBack((db) => db.execute(sql`delete from audit_log where id = ${newest!.id}`));
    expect((await verify()).breaks).toEqual([
      expect.objectContaining({ chain: "audit/0", rowId: before!.id, kind: "deleted" }),
    ]);
    await behindTheBack((db) =>
      db.execute(sql`insert into audit_log overriding system value
        select * from json_populate_record(null::audit_log, ${JSON.stringify({
          ...newestRow,
          hash: `\\x${(newestRow.hash as Buffer).toString("hex")}`,
        })}::json)`),
    );

    await behindTheBack((db) =>
      db.execute(
        sql`update chain_heads set hash = sha256(hash) where chain = 'audit' and shard = 0`,
      ),
    );
    expect((await verify()).breaks).toEqual([
      expect.objectContaining({ chain: "audit/0", rowId: newest!.id, kind: "head-moved" }),
    ]);
    await behindTheBack((db) =>
      db.execute(sql`update chain_heads h set hash = a.hash from audit_log a
        where h.chain = 'audit' and h.shard = 0 and a.id = ${newest!.id}`),
    );
    expect((await verify()).status).toBe("ok");
  });
});

describe("export", () => {
  const today = businessDayOf(new Date());
  const exportOf = async (table: string, from = today, to = today, token = viewer) =>
    call(suite.app, token, "GET", `/api/integrity/export?table=${table}&from=${from}&to=${to}`);
  const script = (file: string, key: string) =>
    run(process.execPath, ["scripts/verify-export.mjs", file, key]).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );

  it("verifies offline with the shipped script, and a tampered line does not", async () => {
    const key = await call(suite.app, viewer, "GET", "/api/integrity/public-key");
    expect(key.statusCode).toBe(200);
    const keyFile = join(work, "key.json");
    writeFileSync(keyFile, key.body);
    for (const table of ["audit", "ledger"]) {
      const response = await exportOf(table);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers["content-type"]).toContain("application/x-ndjson");
      const file = join(work, `${table}.jsonl`);
      writeFileSync(file, response.body);
      const checked = await script(file, keyFile);
      expect(checked.stdout, checked.stdout).toContain("OK");
      expect(checked.code).toBe(0);
      expect(
        response.body.split("\n").filter((line) => line.includes('"type":"row"')).length,
      ).toBeGreaterThan(0);
    }
    // One row's field changed, the signature left as it was: both the signature and the chain fail.
    const lines = readFileSync(join(work, "ledger.jsonl"), "utf8").split("\n");
    const index = lines.findIndex((line) => line.includes(`"user_id":"${wallet.id}"`));
    lines[index] = lines[index]!.replace(/"amount_sen":"(\d+)"/, '"amount_sen":"9$1"');
    const tampered = join(work, "tampered.jsonl");
    writeFileSync(tampered, lines.join("\n"));
    const checked = await script(tampered, keyFile);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toContain("signature");
    expect(checked.stdout).toContain(`wallet/${wallet.id}`);
  });

  it("refuses a bad period with a clear code and writes nothing", async () => {
    const [before] = (
      await suite.db.execute<{ n: number }>(sql`select count(*)::int as n from audit_log`)
    ).rows;
    const cases: Array<[string, string, string, string]> = [
      ["audit", "2026-13-01", today, "VALIDATION_ERROR"],
      ["audit", `${today}%00`, today, "VALIDATION_ERROR"],
      ["everything", today, today, "VALIDATION_ERROR"],
      ["audit", today, "2020-01-01", "RANGE_REVERSED"],
      ["audit", today, "2099-01-01", "EXPORT_PERIOD_FUTURE"],
      ["ledger", "2016-01-01", "2025-12-31", "EXPORT_PERIOD_TOO_LONG"],
    ];
    for (const [table, from, to, code] of cases) {
      const response = await exportOf(table, from, to);
      expect(response.statusCode, `${table} ${from} ${to}`).toBe(400);
      expect(response.json<{ code: string }>().code).toBe(code);
    }
    const [after] = (
      await suite.db.execute<{ n: number }>(sql`select count(*)::int as n from audit_log`)
    ).rows;
    expect(after!.n).toBe(before!.n);
  });
});

describe("concurrency", () => {
  it("keeps every chain valid under 2,000 audited writes and top-ups, 100 at a time", async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => insertWalletUser(suite.db)));
    const write = (i: number) =>
      suite.db.transaction(async (tx) => {
        await recordAudit(tx, {
          adminId: null,
          action: "integrity.load",
          targetTable: "users",
          targetId: i,
          after: { i },
        });
        if (i % 10 === 0) {
          await topUpWallet(
            tx,
            { userId: users[i % 5]!.id },
            { amountSen: 1_000, channel: "counter" },
          );
          await recordAudit(tx, {
            adminId: null,
            action: "integrity.load",
            targetTable: "users",
            targetId: i,
          });
        }
      });
    // 2,000 writes, 100 in flight at any moment: ten times the pool's connections, so every
    // connection always has writers waiting behind it. Not all 2,000 at once: a write waits at most
    // 5 s for a connection (server/db, then 503 DATABASE_UNAVAILABLE), and on a loaded machine
    // the last of 2,000 queued writes waited longer than that (CI, the run on PostgreSQL).
    const outcomes: PromiseSettledResult<unknown>[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 100 }, async () => {
        for (let i = next++; i < 2_000; i = next++) {
          [outcomes[i]] = await Promise.allSettled([write(i)]);
        }
      }),
    );
    const failed = outcomes.filter((outcome) => outcome.status === "rejected");
    // A top-up may meet the policy's daily limit; nothing else may fail.
    for (const outcome of failed) {
      expect(String((outcome as PromiseRejectedResult).reason)).toMatch(/POLICY|limit|balance/i);
    }
    const result = await verify();
    expect(result.breaks).toEqual([]);
    expect(result.status).toBe("ok");
    if (suite.testDb.kind === "postgres") {
      // Concurrent writers took different shards: none waited for another's.
      const [used] = (
        await suite.db.execute<{ shards: number }>(sql`
          select count(distinct chain_shard)::int as shards from audit_log
          where action = 'integrity.load'`)
      ).rows;
      expect(used!.shards).toBeGreaterThan(1);
    }
  }, 300_000);
});

describe("the signing key", () => {
  const production = {
    DATA_DIR: work,
    NODE_ENV: "production",
    JWT_SECRET: "p".repeat(40),
    SECOND_FACTOR_KEY: "k".repeat(40),
    PUBLIC_URL: "https://console.wallet.example",
    RECAPTCHA_DISABLED: "true",
  };

  it("is required in production, a PEM or a 32-byte seed, and generated once elsewhere", () => {
    expect(() => loadConfig(production)).toThrow(/INTEGRITY_SIGNING_KEY is required/);
    for (const bad of [
      "short",
      "AAAA",
      "-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----",
    ]) {
      expect(() => loadConfig({ ...production, INTEGRITY_SIGNING_KEY: bad })).toThrow(
        /INTEGRITY_SIGNING_KEY must be an Ed25519 private key/,
      );
    }
    const pem = generateKeyPairSync("ed25519")
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString();
    const config = loadConfig({ ...production, INTEGRITY_SIGNING_KEY: pem });
    expect(config.integritySigningKeyIsLocal).toBe(false);
    expect(signerOf(config.integritySigningKey).publicKeyPem).toContain("BEGIN PUBLIC KEY");
    const local = join(work, "local");
    const first = loadConfig({ DATA_DIR: local });
    expect(first.integritySigningKeyIsLocal).toBe(true);
    expect(loadConfig({ DATA_DIR: local }).integritySigningKey).toBe(first.integritySigningKey);
  });
});
