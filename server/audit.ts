import { and, count, desc, eq, sql } from "drizzle-orm";

import type { AuditEntryDto } from "../src/shared/schemas/user-actions";
import type { DbOrTx } from "./db";
import { preparedQuery } from "./db/prepared";
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
 * Appends one entry to the audit trail. Call it with the transaction handle of the change it
 * records, so the change and its entry commit or roll back together.
 */
export async function recordAudit(tx: DbOrTx, entry: AuditEntry): Promise<void> {
  await insertEntry(tx, {
    adminId: entry.adminId,
    action: entry.action,
    targetTable: entry.targetTable,
    targetId: String(entry.targetId),
    remark: entry.remark ?? null,
    before: json(entry.before),
    after: json(entry.after),
    approvedBy: entry.approvedBy ?? null,
  });
}

/** A snapshot as the jsonb placeholder takes it (none: SQL null, not JSON's null). */
const json = (value: unknown) => (value == null ? null : JSON.stringify(value));

const insertEntry = preparedQuery((db) => {
  const value = (name: string) => sql.placeholder(name);
  return db.insert(auditLog).values({
    adminId: sql`${value("adminId")}::int`,
    action: sql`${value("action")}::text`,
    targetTable: sql`${value("targetTable")}::text`,
    targetId: sql`${value("targetId")}::text`,
    remark: sql`${value("remark")}::text`,
    before: sql`${value("before")}::jsonb`,
    after: sql`${value("after")}::jsonb`,
    approvedBy: sql`${value("approvedBy")}::int`,
  });
});

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
