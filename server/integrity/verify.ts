/**
 * The verification of the tamper-evident chains (docs/integrity.md): walks every audit shard by
 * chain_seq and the whole ledger by id (each wallet's rows in id order are its chain), recomputes
 * each link from the row's content (the digest in SQL, the link in Node), compares the ends with
 * the heads (chain_heads, wallets.ledger_hash), and names the FIRST broken link of each chain.
 *
 * Rows are read in keyset pages of PAGE rows (never a whole table, never one long transaction:
 * the embedded store has one connection). Writers keep appending meanwhile, so a chain that looks
 * broken is read again in one statement (one snapshot) with its head before it is reported.
 */
import { createHash } from "node:crypto";

import { sql } from "drizzle-orm";

import type { DbOrTx } from "../db";
import { chainVerifications } from "../db/schema";
import { auditDigestSql, ledgerDigestSql, linkOf, ZERO_HASH } from "./canonical";
import type { Signer } from "./signing";

/** Rows a page of the walk reads. */
const PAGE = 20_000;
/** Breaks a verification records (the first of each chain), at most. */
const MAX_BREAKS = 100;

export type BreakKind = "edited" | "deleted" | "inserted" | "head-moved";

export interface ChainBreak {
  table: "audit_log" | "wallet_transactions";
  /** `audit/<shard>` or `wallet/<user id>`. */
  chain: string;
  /** The row where the chain breaks (null: none is left, e.g. every row deleted). */
  rowId: number | null;
  kind: BreakKind;
  /** What the chain expects there and what was found (hex hashes, or link numbers). */
  expected: string | null;
  found: string | null;
  detail: string;
}

export interface Verification {
  id?: number;
  status: "ok" | "broken";
  rowsChecked: number;
  heads: {
    audit: Record<string, { seq: number; hash: string }>;
    /** Wallets with a chain, and SHA-256 over their heads in user id order (hex). */
    ledger: { wallets: number; digest: string };
  };
  breaks: ChainBreak[];
  startedAt: string;
  finishedAt: string;
  adminId: number | null;
  signature: string;
  keyId: string;
}

const hex = (value: Buffer | null | undefined) => (value ? value.toString("hex") : null);

type AuditRow = {
  id: string;
  seq: string;
  hash: Buffer | null;
  digest: Buffer;
};

/** One audit shard's walk from link `fromSeq` (after `previous`); its first break, if any. */
async function walkShard(
  db: DbOrTx,
  shard: number,
  head: { seq: number; hash: Buffer },
  counted: { rows: number },
): Promise<ChainBreak | undefined> {
  let previous = ZERO_HASH;
  let seq = 0;
  let lastId: number | null = null;
  const broken = (
    rowId: number | null,
    kind: BreakKind,
    expected: string | null,
    found: string | null,
    detail: string,
  ): ChainBreak => ({
    table: "audit_log",
    chain: `audit/${shard}`,
    rowId,
    kind,
    expected,
    found,
    detail,
  });
  for (;;) {
    const { rows } = await db.execute<AuditRow>(sql`
      select a.id, a.chain_seq as seq, a.hash, ${auditDigestSql("a")} as digest
      from audit_log a where a.chain_shard = ${shard}::int and a.chain_seq > ${seq}::bigint
      order by a.chain_seq limit ${PAGE}::int`);
    for (const row of rows) {
      const id = Number(row.id);
      const rowSeq = Number(row.seq);
      counted.rows += 1;
      if (rowSeq > head.seq) {
        return broken(
          id,
          "inserted",
          `link ${head.seq} is the head`,
          `link ${rowSeq}`,
          "An entry lies beyond the shard's head: written behind the application's back",
        );
      }
      if (rowSeq !== seq + 1) {
        return broken(
          id,
          "deleted",
          `link ${seq + 1}`,
          `link ${rowSeq}`,
          `Links ${seq + 1} to ${rowSeq - 1} are missing before this entry: deleted`,
        );
      }
      const expected = linkOf(previous, row.digest);
      if (!row.hash || !expected.equals(row.hash)) {
        return broken(
          id,
          "edited",
          hex(expected),
          hex(row.hash),
          "The entry's content no longer matches its link: edited",
        );
      }
      previous = row.hash;
      seq = rowSeq;
      lastId = id;
    }
    if (rows.length < PAGE) break;
  }
  if (seq < head.seq) {
    return broken(
      lastId,
      "deleted",
      `link ${head.seq}`,
      `link ${seq}`,
      `The newest links ${seq + 1} to ${head.seq} are missing: deleted`,
    );
  }
  if (!previous.equals(head.hash)) {
    return broken(
      lastId,
      "head-moved",
      hex(previous),
      hex(head.hash),
      "The shard's head does not match its newest entry: the head was changed",
    );
  }
  return undefined;
}

type LedgerRowLink = {
  id: string;
  user_id: number;
  hash: Buffer | null;
  digest: Buffer;
  amount_sen: string;
  balance_after_sen: string;
};

interface WalletState {
  previous: Buffer;
  balance: number | null;
  lastId: number | null;
  broken?: ChainBreak;
  /** The row whose link is the wallet's head, and the first row after it (rows past the head). */
  atHead?: number;
  afterHead?: number;
}

/**
 * One wallet's chain from its first row, given its rows in id order and its head: the first
 * break, if any. The kind of a broken link is told from the balances: a row whose balance does
 * not follow from the row before it (by its amount, or unchanged for a row that did not count)
 * follows a deleted row; otherwise its content was edited.
 */
function walkWallet(
  userId: number,
  state: WalletState,
  row: LedgerRowLink,
  head: Buffer | null | undefined,
): ChainBreak | undefined {
  const id = Number(row.id);
  const balance = Number(row.balance_after_sen);
  const broken = (
    kind: BreakKind,
    expected: string | null,
    found: string | null,
    detail: string,
  ): ChainBreak => ({
    table: "wallet_transactions",
    chain: `wallet/${userId}`,
    rowId: id,
    kind,
    expected,
    found,
    detail,
  });
  if (!row.hash) {
    return broken(
      "inserted",
      "a link",
      null,
      "A row without a link: written behind the application's back",
    );
  }
  const expected = linkOf(state.previous, row.digest);
  if (!expected.equals(row.hash)) {
    const before = state.balance ?? 0;
    const follows = balance === before || balance === before + Number(row.amount_sen);
    return follows
      ? broken(
          "edited",
          hex(expected),
          hex(row.hash),
          "The row's content no longer matches its link: edited",
        )
      : broken(
          "deleted",
          hex(expected),
          hex(row.hash),
          "The row's link does not follow the row before it, nor does its balance: a row before it was deleted",
        );
  }
  state.previous = row.hash;
  state.balance = balance;
  state.lastId = id;
  if (state.atHead !== undefined && state.afterHead === undefined) state.afterHead = id;
  if (head && row.hash.equals(head)) {
    state.atHead = id;
    state.afterHead = undefined;
  }
  return undefined;
}

/** The end of a wallet's walk against its head (hash and balance); the break, if any. */
function endOfWallet(
  userId: number,
  state: WalletState,
  head: { hash: Buffer | null; balance: number },
): ChainBreak | undefined {
  const found = head.hash ?? ZERO_HASH;
  if (found.equals(state.previous)) return undefined;
  if (state.afterHead !== undefined) {
    return {
      table: "wallet_transactions",
      chain: `wallet/${userId}`,
      rowId: state.afterHead,
      kind: "inserted",
      expected: hex(found),
      found: hex(state.previous),
      detail:
        "Rows follow the row the wallet's head points at: inserted behind the application's back",
    };
  }
  const tailDeleted = state.balance !== head.balance || state.lastId === null;
  return {
    table: "wallet_transactions",
    chain: `wallet/${userId}`,
    rowId: state.lastId,
    kind: tailDeleted ? "deleted" : "head-moved",
    expected: hex(found),
    found: hex(state.previous),
    detail: tailDeleted
      ? "The wallet's head is past its newest row, whose balance is not the wallet's: its newest rows were deleted"
      : "The wallet's head does not match its newest row: the head was changed",
  };
}

/** One wallet verified from one snapshot (a single statement): its rows and its head. */
async function recheckWallet(db: DbOrTx, userId: number): Promise<ChainBreak | undefined> {
  const { rows } = await db.execute<
    LedgerRowLink & { head: Buffer | null; wallet_balance: string }
  >(sql`
    select w.ledger_hash as head, w.balance_sen as wallet_balance, t.id, t.user_id, t.hash,
           ${ledgerDigestSql("t")} as digest, t.amount_sen, t.balance_after_sen
    from wallets w left join wallet_transactions t on t.user_id = w.user_id
    where w.user_id = ${userId}::int order by t.id`);
  const state: WalletState = { previous: ZERO_HASH, balance: null, lastId: null };
  for (const row of rows) {
    if (row.id === null) break;
    const found = walkWallet(userId, state, row, row.head);
    if (found) return found;
  }
  const first = rows[0];
  if (!first) return undefined;
  return endOfWallet(userId, state, { hash: first.head, balance: Number(first.wallet_balance) });
}

/** An audit shard's tail re-read in one statement with its head, when the walk's end looked wrong. */
async function recheckShard(db: DbOrTx, shard: number, counted: { rows: number }) {
  const { rows } = await db.execute<{ seq: string; hash: Buffer }>(sql`
    select seq, hash from chain_heads where chain = 'audit' and shard = ${shard}::int`);
  const head = rows[0]!;
  return walkShard(db, shard, { seq: Number(head.seq), hash: head.hash }, counted);
}

type WalletHeads = Map<number, { hash: Buffer | null; balance: number }>;

/** The ledger's rows checked, and the wallets whose chain looks broken (walked again after). */
interface LedgerWalk {
  rows: number;
  suspects: Set<number>;
}

/**
 * The ledger on the embedded store: the whole table in pages of ids, each wallet's state kept
 * here, the next page asked for while this one is walked. Short statements, so that requests
 * still get the store's one connection between them. Rows appended after the walk's first read
 * are no part of it (their wallets' heads moved: walked again after).
 */
async function ledgerSuspectsInNode(db: DbOrTx, walletHeads: WalletHeads): Promise<LedgerWalk> {
  const states = new Map<number, WalletState>();
  const suspects = new Set<number>();
  let rows = 0;
  const [last] = (
    await db.execute<{ max: number }>(
      sql`select coalesce(max(id), 0)::int as max from wallet_transactions`,
    )
  ).rows;
  const page = (lo: number) =>
    db.execute<LedgerRowLink>(sql`
      select t.id, t.user_id, t.hash, ${ledgerDigestSql("t")} as digest, t.amount_sen,
             t.balance_after_sen
      from wallet_transactions t
      where t.id > ${lo}::int and t.id <= ${lo + PAGE}::int
      order by t.id`);
  let next = page(0);
  for (let lo = 0; lo < last!.max; lo += PAGE) {
    const answer = await next;
    if (lo + PAGE < last!.max) next = page(lo + PAGE);
    for (const row of answer.rows) {
      rows += 1;
      let state = states.get(row.user_id);
      if (!state) {
        state = { previous: ZERO_HASH, balance: null, lastId: null };
        states.set(row.user_id, state);
      }
      if (state.broken) continue;
      const found = walkWallet(row.user_id, state, row, walletHeads.get(row.user_id)?.hash);
      if (found) {
        state.broken = found;
        suspects.add(row.user_id);
      }
    }
  }
  for (const [userId, head] of walletHeads) {
    const state = states.get(userId) ?? { previous: ZERO_HASH, balance: null, lastId: null };
    if (!state.broken && endOfWallet(userId, state, head)) suspects.add(userId);
  }
  // Rows of wallets that have none (no wallet row): outside every chain.
  for (const userId of states.keys()) {
    if (!walletHeads.has(userId)) suspects.add(userId);
  }
  return { rows, suspects };
}

/**
 * The ledger on PostgreSQL: the wallets split into `parts` (user id modulo), each part checked
 * in ONE statement on a connection of its own, side by side. A chain is intact when every row's
 * link is SHA-256(the stored link of the wallet's row before it, or zero bytes, ‖ the row's
 * digest) and the newest row's link is the wallet's head: so each row is checked against its
 * predecessor's stored link (lag), with the digests computed by the scan's parallel workers, and
 * only the wallets that fail come back (walked again one by one, to name the first broken link).
 * One statement is one snapshot: writers moving heads meanwhile raise no false alarm. The sort
 * by wallet takes ~100 bytes a row of memory: work_mem is raised for that statement only.
 * 10M rows: docs/integrity.md.
 */
async function ledgerSuspectsInDatabase(db: DbOrTx, parts: number): Promise<LedgerWalk> {
  const answers = await Promise.all(
    Array.from({ length: parts }, (_, part) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`set local work_mem = '1GB'`);
        const { rows } = await tx.execute<{ rows: string; suspects: number[] | null }>(sql`
          with links as (
            select t.user_id, t.hash,
                   sha256(coalesce(lag(t.hash) over w, ${ZERO_HASH}::bytea) || t.digest) as expected,
                   lead(t.id) over w is null as newest
            -- OFFSET 0 keeps the digests in the subquery: computed by the parallel workers
            -- under the sort (1M rows: 4.0 s), not one by one above it (4.9 s, loaded machine).
            from (select t.id, t.user_id, t.hash, ${ledgerDigestSql("t")} as digest
                  from wallet_transactions t
                  where t.user_id % ${parts}::int = ${part}::int offset 0) t
            window w as (partition by t.user_id order by t.id)
          )
          select count(*) as rows,
                 array_agg(distinct l.user_id) filter (
                   where l.hash is null or l.expected <> l.hash
                      or (l.newest and (w.user_id is null or w.ledger_hash is distinct from l.hash))
                 ) as suspects
          from links l left join wallets w on l.newest and w.user_id = l.user_id`);
        return rows[0]!;
      }),
    ),
  );
  // Wallets whose head names a link when they have no row at all.
  const { rows: headless } = await db.execute<{ user_id: number }>(sql`
    select w.user_id from wallets w
    where w.ledger_hash is not null and w.ledger_hash <> ${ZERO_HASH}::bytea
      and not exists (select 1 from wallet_transactions t where t.user_id = w.user_id)`);
  const suspects = new Set<number>(headless.map((row) => row.user_id));
  let rows = 0;
  for (const answer of answers) {
    rows += Number(answer.rows);
    for (const userId of answer.suspects ?? []) suspects.add(userId);
  }
  return { rows, suspects };
}

/**
 * Walks every chain; records and returns the signed result. `adminId`: who asked (null: the job).
 * `parts`: connections the ledger's check uses side by side on PostgreSQL (1: the embedded
 * store's paged walk).
 */
export async function verifyChains(
  db: DbOrTx,
  signer: Signer,
  adminId: number | null,
  options: { parts?: number } = {},
): Promise<Verification> {
  const startedAt = new Date();
  const counted = { rows: 0 };
  const breaks: ChainBreak[] = [];
  const heads: Verification["heads"] = { audit: {}, ledger: { wallets: 0, digest: "" } };

  // The audit trail: each shard from its first link to its head.
  const { rows: shards } = await db.execute<{ shard: number; seq: string; hash: Buffer }>(sql`
    select shard, seq, hash from chain_heads where chain = 'audit' order by shard`);
  for (const shard of shards) {
    const head = { seq: Number(shard.seq), hash: shard.hash };
    let found = await walkShard(db, shard.shard, head, counted);
    // A head read before writers moved it: read again, the head and the tail in one snapshot.
    if (found && (found.kind === "inserted" || found.kind === "head-moved")) {
      found = await recheckShard(db, shard.shard, { rows: 0 });
    }
    if (found) breaks.push(found);
    heads.audit[shard.shard] = { seq: head.seq, hash: head.hash.toString("hex") };
  }
  // Entries outside every chain: no link, or a shard that does not exist.
  const { rows: stray } = await db.execute<{ id: string }>(sql`
    select id from audit_log a
    where a.hash is null or a.chain_seq is null
       or not exists (select 1 from chain_heads h where h.chain = 'audit' and h.shard = a.chain_shard)
    order by id limit 1`);
  if (stray[0]) {
    breaks.push({
      table: "audit_log",
      chain: "audit/none",
      rowId: Number(stray[0].id),
      kind: "inserted",
      expected: "a link",
      found: null,
      detail: "An entry outside every chain: written behind the application's back",
    });
  }

  // The ledger: the whole table by id, each wallet's state kept.
  const { rows: walletRows } = await db.execute<{
    user_id: number;
    hash: Buffer | null;
    balance: string;
  }>(sql`
    select user_id, ledger_hash as hash, balance_sen as balance from wallets order by user_id`);
  const walletHeads: WalletHeads = new Map();
  const headDigest = createHash("sha256");
  for (const wallet of walletRows) {
    walletHeads.set(wallet.user_id, { hash: wallet.hash, balance: Number(wallet.balance) });
    if (wallet.hash) {
      heads.ledger.wallets += 1;
      headDigest.update(`${wallet.user_id}:`).update(wallet.hash);
    }
  }
  heads.ledger.digest = headDigest.digest("hex");
  const parts = Math.max(1, options.parts ?? 1);
  const walked =
    parts > 1
      ? await ledgerSuspectsInDatabase(db, parts)
      : await ledgerSuspectsInNode(db, walletHeads);
  counted.rows += walked.rows;
  const { suspects } = walked;
  // Each suspect again from one snapshot: a row committed behind the walk is no break.
  for (const userId of [...suspects].sort((a, b) => a - b)) {
    if (breaks.length >= MAX_BREAKS) break;
    const found = await recheckWallet(db, userId);
    if (found) breaks.push(found);
    else if (!walletHeads.has(userId)) {
      const [newest] = (
        await db.execute<{ id: number | null }>(
          sql`select max(id)::int as id from wallet_transactions where user_id = ${userId}::int`,
        )
      ).rows;
      breaks.push({
        table: "wallet_transactions",
        chain: `wallet/${userId}`,
        rowId: newest?.id ?? null,
        kind: "inserted",
        expected: null,
        found: null,
        detail: "Rows of a user without a wallet: written behind the application's back",
      });
    }
  }

  const finishedAt = new Date();
  const result = {
    status: breaks.length === 0 ? ("ok" as const) : ("broken" as const),
    rowsChecked: counted.rows,
    heads,
    breaks: breaks.slice(0, MAX_BREAKS),
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    adminId,
  };
  const signature = signer.sign(Buffer.from(canonicalJson(result)));
  const [saved] = await db
    .insert(chainVerifications)
    .values({
      status: result.status,
      rowsChecked: result.rowsChecked,
      heads: result.heads,
      breaks: result.breaks,
      adminId,
      startedAt,
      finishedAt,
      signature: `${signer.keyId}:${signature}`,
    })
    .returning({ id: chainVerifications.id });
  return { ...result, id: saved!.id, signature, keyId: signer.keyId };
}

/** JSON with object keys sorted (code point order), no whitespace: what a verification signs. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}
