/**
 * The signed export of a period of the audit trail or the ledger (docs/integrity.md): JSON lines
 * an auditor verifies offline with scripts/verify-export.mjs.
 *
 * 1. a header (format, table, period, fields in hashing order, the signing key's id);
 * 2. chain by chain: a `chain` line with the link before its first exported row; its rows in
 *    chain order, every row from the chain's first row dated in the period to its last (a row
 *    between them dated outside the period too, so the chain has no hole), each with its fields'
 *    canonical texts and its link; an `end` line with its last link and the chain's head now;
 * 4. the signature: Ed25519 over SHA-256 of every byte before that line.
 *
 * A period is at most MAX_EXPORT_DAYS business days, streamed (never held in memory whole).
 */
import { createHash } from "node:crypto";

import { sql } from "drizzle-orm";

import { businessDayStart } from "../business-day";
import type { DbOrTx } from "../db";
import { AUDIT_FIELDS, canonicalColumns, LEDGER_FIELDS, ZERO_HASH } from "./canonical";
import type { Signer } from "./signing";

/** The longest period one export covers, in business days. */
export const MAX_EXPORT_DAYS = 31;
export const EXPORT_FORMAT = "ucsi-wallet-integrity-export/1";

/** Rows a page of the export reads; wallets a batch of the ledger's export reads. */
const PAGE = 5_000;
const WALLET_BATCH = 200;

export interface ExportRequest {
  table: "audit" | "ledger";
  /** First and last business day (included). */
  from: string;
  to: string;
}

type Fields = Record<string, string | null>;
type Line = Record<string, unknown>;

/** The export's lines, the signature last. */
export async function* exportLines(
  db: DbOrTx,
  signer: Signer,
  request: ExportRequest,
): AsyncGenerator<string> {
  const digest = createHash("sha256");
  const emit = (line: Line) => {
    const text = `${JSON.stringify(line)}\n`;
    digest.update(text);
    return text;
  };
  const start = businessDayStart(request.from);
  const end = sql`(${businessDayStart(request.to)} + interval '1 day')`;
  yield emit({
    type: "header",
    format: EXPORT_FORMAT,
    table: request.table,
    from: request.from,
    to: request.to,
    generatedAt: new Date().toISOString(),
    fields: request.table === "audit" ? AUDIT_FIELDS : LEDGER_FIELDS,
    link: "sha256(previous || sha256(fields))",
    keyId: signer.keyId,
  });
  const lines =
    request.table === "audit" ? auditLines(db, start, end) : ledgerLines(db, start, end);
  for await (const line of lines) yield emit(line);
  const sha256 = digest.digest();
  yield `${JSON.stringify({
    type: "signature",
    algorithm: "Ed25519",
    signed: "sha256 of every byte before this line",
    sha256: sha256.toString("hex"),
    keyId: signer.keyId,
    signature: signer.sign(sha256),
  })}\n`;
}

const hex = (value: Buffer | null) => (value ? value.toString("hex") : null);

async function* auditLines(
  db: DbOrTx,
  start: ReturnType<typeof sql>,
  end: ReturnType<typeof sql>,
): AsyncGenerator<Line> {
  const { rows: chains } = await db.execute<{
    shard: number;
    lo: string;
    hi: string;
    previous: Buffer | null;
    head_seq: string;
    head_hash: Buffer;
  }>(sql`
    select b.shard, b.lo, b.hi, h.seq as head_seq, h.hash as head_hash,
           (select p.hash from audit_log p
            where p.chain_shard = b.shard and p.chain_seq = b.lo - 1) as previous
    from (select chain_shard as shard, min(chain_seq) as lo, max(chain_seq) as hi
          from audit_log where created_at >= ${start} and created_at < ${end}
            and chain_shard is not null
          group by chain_shard) b
    join chain_heads h on h.chain = 'audit' and h.shard = b.shard
    order by b.shard`);
  for (const chain of chains) {
    yield {
      type: "chain",
      chain: `audit/${chain.shard}`,
      previous: Number(chain.lo) === 1 ? hex(ZERO_HASH) : hex(chain.previous),
    };
    let seq = Number(chain.lo) - 1;
    let last: Buffer | null = null;
    for (;;) {
      const { rows } = await db.execute<Fields & { seq: string; hash: Buffer | null }>(sql`
        select a.chain_seq as seq, a.hash, ${canonicalColumns(AUDIT_FIELDS, "a")}
        from audit_log a
        where a.chain_shard = ${chain.shard}::int and a.chain_seq > ${seq}::bigint
          and a.chain_seq <= ${chain.hi}::bigint
        order by a.chain_seq limit ${PAGE}::int`);
      for (const { seq: rowSeq, hash, ...fields } of rows) {
        yield {
          type: "row",
          chain: `audit/${chain.shard}`,
          seq: Number(rowSeq),
          fields,
          hash: hex(hash),
        };
        last = hash;
        seq = Number(rowSeq);
      }
      if (rows.length < PAGE) break;
    }
    yield {
      type: "end",
      chain: `audit/${chain.shard}`,
      last: hex(last),
      head: { seq: Number(chain.head_seq), hash: hex(chain.head_hash) },
    };
  }
}

async function* ledgerLines(
  db: DbOrTx,
  start: ReturnType<typeof sql>,
  end: ReturnType<typeof sql>,
): AsyncGenerator<Line> {
  const { rows: bounds } = await db.execute<{ user_id: number; lo: number; hi: number }>(sql`
    select user_id, min(id) as lo, max(id) as hi from wallet_transactions
    where created_at >= ${start} and created_at < ${end}
    group by user_id order by user_id`);
  for (let first = 0; first < bounds.length; first += WALLET_BATCH) {
    const batch = bounds.slice(first, first + WALLET_BATCH);
    const arrays = sql`unnest(${`{${batch.map((b) => b.user_id).join(",")}}`}::int[],
      ${`{${batch.map((b) => b.lo).join(",")}}`}::int[],
      ${`{${batch.map((b) => b.hi).join(",")}}`}::int[]) as b(user_id, lo, hi)`;
    const { rows: heads } = await db.execute<{
      user_id: number;
      previous: Buffer | null;
      head: Buffer | null;
    }>(sql`
      select b.user_id, w.ledger_hash as head,
             (select p.hash from wallet_transactions p where p.user_id = b.user_id and p.id < b.lo
              order by p.id desc limit 1) as previous
      from ${arrays} left join wallets w on w.user_id = b.user_id`);
    const headOf = new Map(heads.map((head) => [head.user_id, head]));
    const { rows } = await db.execute<
      Fields & { wallet: number; status: string; hash: Buffer | null }
    >(sql`
      select t.user_id as wallet, t.status, t.hash, ${canonicalColumns(LEDGER_FIELDS, "t")}
      from wallet_transactions t join ${arrays}
        on t.user_id = b.user_id and t.id between b.lo and b.hi
      order by t.user_id, t.id`);
    let current: number | undefined;
    let last: Buffer | null = null;
    const open = (userId: number): Line => ({
      type: "chain",
      chain: `wallet/${userId}`,
      previous: hex(headOf.get(userId)?.previous ?? ZERO_HASH),
    });
    const close = (userId: number): Line => ({
      type: "end",
      chain: `wallet/${userId}`,
      last: hex(last),
      head: { hash: hex(headOf.get(userId)?.head ?? null) },
    });
    for (const { wallet, status, hash, ...fields } of rows) {
      if (current !== wallet) {
        if (current !== undefined) yield close(current);
        yield open(wallet);
      }
      current = wallet;
      yield { type: "row", chain: `wallet/${wallet}`, fields, status, hash: hex(hash) };
      last = hash;
    }
    if (current !== undefined) yield close(current);
  }
}
