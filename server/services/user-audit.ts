import { and, count, eq } from "drizzle-orm";

import { newestFirst } from "../audit";
import type { DbOrTx } from "../db";
import { administrators, auditLog, users } from "../db/schema";
import { notFound } from "../errors";
import type { AuditEntryDto } from "../../src/shared/schemas/user-actions";

/** The audit entries about one user (see listAudit). */
export async function listUserAudit(
  db: DbOrTx,
  userId: number,
  page: { page: number; pageSize: number },
) {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!user) throw notFound("User");
  return listAudit(db, "users", userId, page);
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
