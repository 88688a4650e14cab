import { eq } from "drizzle-orm";

import { recordAudit } from "../audit";
import type { Db, DbOrTx, Tx } from "../db";
import { users, type AdministratorRow, type UserRow } from "../db/schema";
import { conflict, notFound } from "../errors";

/** How a user is looked up: by id (REST calls) or by account number (the /user-mgmt calls). */
export type UserKey = { id: number } | { accountNumber: string };

const whereKey = (key: UserKey) =>
  "id" in key ? eq(users.id, key.id) : eq(users.accountNumber, key.accountNumber);

/** The user a call names; 404 "User not found" otherwise. */
export async function findUser(db: DbOrTx, key: UserKey): Promise<UserRow> {
  const [row] = await db.select().from(users).where(whereKey(key));
  if (!row) throw notFound("User");
  return row;
}

/** The user row, locked until the transaction ends, so that "check, then write" cannot race. */
export async function lockUser(tx: Tx, key: UserKey): Promise<UserRow> {
  const [row] = await tx.select().from(users).where(whereKey(key)).for("update");
  if (!row) throw notFound("User");
  return row;
}

/** What the audit trail keeps of a user: the fields staff change, without timestamps. */
export function userAuditSnapshot(row: UserRow) {
  return {
    accountNumber: row.accountNumber,
    email: row.email,
    phone: row.phone,
    approvalStatus: row.approvalStatus,
    approvalRemark: row.approvalRemark,
    isBanned: row.isBanned,
    banRemark: row.banRemark,
    isVip: row.isVip,
    url: row.url,
  };
}

export interface UserChange {
  /** `user.<verb>` in the audit trail. */
  action: string;
  remark?: string | null;
  /** Throws for an impossible transition; returns the columns to set (empty: nothing to do). */
  plan(current: UserRow): Partial<typeof users.$inferInsert>;
}

/**
 * Applies one change to one user in one transaction with its audit entry (before, after, remark).
 * An empty plan changes nothing and writes no entry.
 */
export async function changeUser(
  db: Db,
  actor: AdministratorRow,
  key: UserKey,
  change: UserChange,
): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const current = await lockUser(tx, key);
    const set = change.plan(current);
    if (Object.keys(set).length === 0) return current;
    const [updated] = await tx.update(users).set(set).where(eq(users.id, current.id)).returning();
    if (!updated) throw notFound("User");
    await recordAudit(tx, {
      adminId: actor.id,
      action: change.action,
      targetTable: "users",
      targetId: updated.id,
      remark: change.remark ?? null,
      before: userAuditSnapshot(current),
      after: userAuditSnapshot(updated),
    });
    return updated;
  });
}

export function banChange(ban: boolean, remark: string | undefined): UserChange {
  return {
    action: ban ? "user.ban" : "user.unban",
    remark: remark ?? null,
    plan(current) {
      if (current.isBanned === ban) {
        throw conflict(
          "ALREADY_IN_STATE",
          ban ? "This user is already banned" : "This user is not banned",
          { isBanned: current.isBanned },
        );
      }
      // The remark of an unban lives in the audit trail; the user's ban remark goes with the ban.
      return { isBanned: ban, banRemark: ban ? (remark ?? null) : null };
    },
  };
}

export function vipChange(isVip: boolean): UserChange {
  return {
    action: isVip ? "user.vip_on" : "user.vip_off",
    plan(current) {
      if (current.isVip === isVip) {
        throw conflict(
          "ALREADY_IN_STATE",
          isVip ? "This user is already a VIP" : "This user is not a VIP",
          { isVip: current.isVip },
        );
      }
      return { isVip };
    },
  };
}

/** Setting the URL it already has is not a change (no audit entry). */
export function urlChange(url: string | null): UserChange {
  return {
    action: "user.set_url",
    plan: (current) => (current.url === url ? {} : { url }),
  };
}
