import { eq } from "drizzle-orm";

import { users as userDeclaration } from "../../../src/shared/modules/users";
import type { UserDetail, UserDto } from "../../../src/shared/schemas/users";
import type { DbOrTx } from "../../db";
import { agents, riders, users, wallets, type UserRow } from "../../db/schema";
import { toItem } from "../../kit/bind";

/** A user row as the API shows it: the users module's record. */
export const toUserDto = (row: UserRow): UserDto => toItem(userDeclaration, row);

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
