import { and, count, desc, eq, sql } from "drizzle-orm";

import type { AuditEntryDto } from "../src/shared/schemas/user-actions";
import type { DbOrTx } from "./db";
import { executePrepared } from "./db/prepared";
import { administrators, auditLog } from "./db/schema";

export interface AuditEntry {
  /** The administrator who acted; null for the system (seed, bootstrap). */
  adminId: number | null;
  /** `<area>.<verb>`, e.g. `administrator.create`. */
  action: string;
  targetTable: string;
  targetId: string | number;
  remark?: string | null;
  before?: unknown;
  after?: unknown;
  /** The second administrator who approved the change (four eyes). */
  approvedBy?: number | null;
}

/**
 * A record's history, newest first: by the entry's id, which the insert draws from a sequence
 * after the change has locked the record, so two changes of one record are numbered in the order
 * they committed. Not by created_at: that is now(), when the transaction began, before it waited
 * for the lock (a change that waited would be listed before the one it waited for).
 */
export const newestFirst = desc(auditLog.id);

/**
 * Appends one entry to the audit trail, linked into the tamper-evident chain (docs/integrity.md).
 * Call it with the transaction handle of the change it records, so the change, its entry and the
 * chain's head commit or roll back together.
 *
 * One statement: it takes the first of the 64 audit chain shards no other transaction holds
 * (FOR UPDATE SKIP LOCKED: concurrent writers chain on different shards, none waits), draws the
 * entry's id, moves the shard's head to SHA-256(head || digest of the entry) and inserts the entry
 * with that link. Only when every shard is held elsewhere does it wait, for one shard picked at
 * random, and only then (a transaction that already holds a shard finds that one free).
 */
export async function recordAudit(tx: DbOrTx, entry: AuditEntry): Promise<void> {
  // A dry run is rolled back: its entry would only take a shard and be undone (markDryRun).
  if (dryRuns.has(tx)) return;
  const values = {
    adminId: entry.adminId,
    action: entry.action,
    targetTable: entry.targetTable,
    targetId: String(entry.targetId),
    remark: entry.remark ?? null,
    before: json(entry.before),
    after: json(entry.after),
    approvedBy: entry.approvedBy ?? null,
  };
  const inserted = await executePrepared(tx, chainedInsert(values, undefined));
  if (inserted.rowCount === 1) return;
  const shard = Math.floor(Math.random() * AUDIT_SHARDS);
  const waited = await executePrepared(tx, chainedInsert(values, shard));
  if (waited.rowCount !== 1) throw new Error(`Audit chain shard ${shard} is missing`);
}

/** The transactions of dry runs (four eyes' preview: server/kit/four-eyes.ts). */
const dryRuns = new WeakSet<object>();

/**
 * Marks `tx` as a dry run's, which is always rolled back: its changes write no audit entry. Only
 * the dry run's own handle: a transaction begun inside it is not one (none is, today).
 */
export function markDryRun(tx: object): void {
  dryRuns.add(tx);
}

/** The audit trail's chain shards (migration 0035 creates them). */
export const AUDIT_SHARDS = 64;

/** A snapshot as the jsonb placeholder takes it (none: SQL null, not JSON's null). */
const json = (value: unknown) => (value == null ? null : JSON.stringify(value));

type EntryValues = {
  adminId: number | null;
  action: string;
  targetTable: string;
  targetId: string;
  remark: string | null;
  before: string | null;
  after: string | null;
  approvedBy: number | null;
};

/** The chained insert: on the first free shard, or (`shard` given) waiting for that one. */
function chainedInsert(v: EntryValues, shard: number | undefined) {
  const pick =
    shard === undefined
      ? sql`select shard from chain_heads where chain = 'audit'
            order by shard limit 1 for update skip locked`
      : sql`select shard from chain_heads where chain = 'audit' and shard = ${shard}::int
            for update`;
  return sql`
    with v as (
      select nextval('audit_log_id_seq') as id, now() as at, ${v.adminId}::int as admin_id,
             ${v.action}::text as action, ${v.targetTable}::text as target_table,
             ${v.targetId}::text as target_id, ${v.remark}::text as remark,
             ${v.before}::jsonb as before, ${v.after}::jsonb as after,
             ${v.approvedBy}::int as approved_by
    ), pick as (${pick}),
    head as (
      update chain_heads h set seq = h.seq + 1, updated_at = v.at,
        hash = sha256(h.hash || audit_digest(v.id, v.admin_id, v.action, v.target_table,
                 v.target_id, v.remark, v.before, v.after, v.approved_by, v.at))
      from pick, v where h.chain = 'audit' and h.shard = pick.shard
      returning h.shard, h.seq, h.hash
    )
    insert into audit_log (id, admin_id, action, target_table, target_id, remark, before, after,
                           approved_by, created_at, chain_shard, chain_seq, hash)
    overriding system value
    select v.id, v.admin_id, v.action, v.target_table, v.target_id, v.remark, v.before, v.after,
           v.approved_by, v.at, head.shard, head.seq, head.hash
    from head, v`;
}

/**
 * The audit entries whose target is one record, newest first (newestFirst: in the order they were
 * committed), with the acting administrator's name (a left join: the trail outlives deleted
 * administrators). Found through audit_log_target_idx; a record's few entries are then sorted.
 * The caller has checked that the record exists and may be seen.
 */
export async function listAudit(
  db: DbOrTx,
  targetTable: string,
  id: number,
  page: { page: number; pageSize: number },
): Promise<{ totalCount: number; entries: AuditEntryDto[] }> {
  const where = and(eq(auditLog.targetTable, targetTable), eq(auditLog.targetId, String(id)));
  const [rows, [total]] = await Promise.all([
    db
      .select({ entry: auditLog, adminName: administrators.name })
      .from(auditLog)
      .leftJoin(administrators, eq(administrators.id, auditLog.adminId))
      .where(where)
      .orderBy(newestFirst)
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize),
    db.select({ value: count() }).from(auditLog).where(where),
  ]);
  return {
    totalCount: total?.value ?? 0,
    entries: rows.map(({ entry, adminName }) => ({
      id: entry.id,
      action: entry.action,
      adminId: entry.adminId,
      adminName,
      remark: entry.remark,
      before: entry.before,
      after: entry.after,
      createdAt: entry.createdAt.toISOString(),
    })),
  };
}
