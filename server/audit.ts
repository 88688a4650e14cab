import { desc, sql } from "drizzle-orm";

import type { DbOrTx } from "./db";
import { preparedQuery } from "./db/prepared";
import { auditLog } from "./db/schema";

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
  });
});
