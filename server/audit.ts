import type { DbOrTx } from "./db";
import { runPrepared } from "./db/prepared";
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
 * Appends one entry to the audit trail. Call it with the transaction handle of the change it
 * records, so the change and its entry commit or roll back together.
 */
export async function recordAudit(tx: DbOrTx, entry: AuditEntry): Promise<void> {
  await runPrepared(
    tx.insert(auditLog).values({
      adminId: entry.adminId,
      action: entry.action,
      targetTable: entry.targetTable,
      targetId: String(entry.targetId),
      remark: entry.remark ?? null,
      before: entry.before ?? null,
      after: entry.after ?? null,
    }),
  );
}
