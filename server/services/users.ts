import { eq } from "drizzle-orm";

import type { DbOrTx } from "../db";
import { agents, riders, users, wallets, type UserRow } from "../db/schema";
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
