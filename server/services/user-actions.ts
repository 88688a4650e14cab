import { eq } from "drizzle-orm";

import type { DbOrTx, Tx } from "../db";
import { users, type UserRow } from "../db/schema";
import { notFound } from "../errors";

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
