import { eq, sql } from "drizzle-orm";

import type { CollectionSpec } from "../aggregation";
import type { DbOrTx } from "../db";
import {
  agents,
  APPROVAL_STATUSES,
  RIDER_VERIFICATION_STATUSES,
  riders,
  USER_ROLES,
  users,
  wallets,
  type UserRow,
} from "../db/schema";
import type { UserDetail, UserDto } from "../schemas/users";

export function toUserDto(row: UserRow): UserDto {
  return {
    id: row.id,
    accountNumber: row.accountNumber,
    name: row.name,
    email: row.email,
    phone: row.phone,
    role: row.role,
    approvalStatus: row.approvalStatus,
    approvalRemark: row.approvalRemark,
    isBanned: row.isBanned,
    banRemark: row.banRemark,
    isVip: row.isVip,
    url: row.url,
    lastActiveAt: row.lastActiveAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * A user with their wallet and role-specific facts, in one round trip: each joined table holds
 * at most one row per user (unique or primary key on user_id), so the joins never multiply rows.
 * Rider documents stay out: they are files, served by the rider-details call.
 */
export async function findUserDetail(db: DbOrTx, id: number): Promise<UserDetail | undefined> {
  const [row] = await db
    .select({
      user: users,
      wallet: { balanceSen: wallets.balanceSen, status: wallets.status },
      rider: {
        vehicleType: riders.vehicleType,
        plate: riders.plate,
        licenceNumber: riders.licenceNumber,
        verificationStatus: riders.verificationStatus,
        verificationRemarks: riders.verificationRemarks,
      },
      agent: { agentType: agents.agentType, commissionRateBp: agents.commissionRateBp },
    })
    .from(users)
    .leftJoin(wallets, eq(wallets.userId, users.id))
    .leftJoin(riders, eq(riders.userId, users.id))
    .leftJoin(agents, eq(agents.userId, users.id))
    .where(eq(users.id, id));
  if (!row) return undefined;
  // Drizzle turns a left-joined object into null when all its columns are null; each has NOT NULL
  // columns, so null means the join found no row.
  return { ...toUserDto(row.user), wallet: row.wallet, rider: row.rider, agent: row.agent };
}

/**
 * What the users list lets clients filter, sort and search. The default sort and the approval
 * status filter are served by users_created_at_idx and users_approval_status_created_at_idx;
 * `$search` by the trigram index on search_text (the four searchable fields in one column).
 */
export const usersCollection: CollectionSpec = {
  queryName: "users",
  fields: {
    id: { column: users.id, type: "number", filterable: true },
    accountNumber: {
      column: users.accountNumber,
      type: "string",
      filterable: true,
      sortable: true,
      searchable: true,
    },
    name: {
      column: users.name,
      type: "string",
      filterable: true,
      sortable: true,
      searchable: true,
    },
    email: { column: users.email, type: "string", filterable: true, searchable: true },
    phone: { column: users.phone, type: "string", filterable: true, searchable: true },
    role: {
      column: users.role,
      type: "enum",
      values: USER_ROLES,
      filterable: true,
      sortable: true,
    },
    approvalStatus: {
      column: users.approvalStatus,
      type: "enum",
      values: APPROVAL_STATUSES,
      filterable: true,
      sortable: true,
    },
    isBanned: { column: users.isBanned, type: "boolean", filterable: true },
    /** A rider's verification status (NULL for other roles), for "pending rider verifications". */
    riderVerification: {
      column: sql`(select ${riders.verificationStatus} from ${riders} where ${riders.userId} = ${users.id})`,
      type: "enum",
      values: RIDER_VERIFICATION_STATUSES,
      filterable: true,
    },
    isVip: { column: users.isVip, type: "boolean", filterable: true },
    createdAt: { column: users.createdAt, type: "date", filterable: true, sortable: true },
    lastActiveAt: { column: users.lastActiveAt, type: "date", filterable: true, sortable: true },
  },
  defaultSort: [
    ["createdAt", -1],
    ["id", -1],
  ],
  tieBreaker: users.id,
  searchColumn: users.searchText,
};
