import { and, count, desc, eq, sql, type SQL } from "drizzle-orm";

import { BUYER_SEARCH_MAX_RESULTS } from "../../../src/shared/user-actions";
import { searchCondition } from "../../aggregation/filter";
import type { CollectionSpec } from "../../aggregation/types";
import type { DbOrTx } from "../../db";
import { users, type UserRole, type UserRow } from "../../db/schema";
import type { MgmtUser } from "../../../src/shared/schemas/user-mgmt";

export function toMgmtUser(row: UserRow): MgmtUser {
  return {
    id: row.id,
    account_number: row.accountNumber,
    name: row.name,
    email: row.email,
    phone: row.phone,
    role: row.role,
    approval_status: row.approvalStatus,
    is_banned: row.isBanned,
    is_vip: row.isVip,
    created_at: row.createdAt.toISOString(),
  };
}

/** A page of users matching `where`, newest first (users_created_at_idx). */
export async function pageOfUsers(
  db: DbOrTx,
  where: SQL | undefined,
  page: { page: number; page_size: number },
) {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(page.page_size)
      .offset((page.page - 1) * page.page_size),
    db.select({ value: count() }).from(users).where(where),
  ]);
  return {
    total_count: total?.value ?? 0,
    page: page.page,
    page_size: page.page_size,
    users: rows.map(toMgmtUser),
  };
}

export const ofRole = (role: UserRole) => eq(users.role, role);
export const pendingOfRole = (role: UserRole) =>
  and(eq(users.role, role), eq(users.approvalStatus, "pending"));

/**
 * Users for a picker: name, e-mail, phone or account number containing the text
 * (case-insensitive, through the users list's search), exact account numbers first, then by
 * name; at most 20.
 */
export async function searchBuyers(
  db: DbOrTx,
  usersCollection: CollectionSpec,
  text: string,
): Promise<MgmtUser[]> {
  const rows = await db
    .select()
    .from(users)
    .where(searchCondition(usersCollection, text))
    .orderBy(sql`${users.accountNumber} = ${text} desc`, users.name, users.id)
    .limit(BUYER_SEARCH_MAX_RESULTS);
  return rows.map(toMgmtUser);
}
