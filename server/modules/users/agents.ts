import { eq } from "drizzle-orm";

import { recordAudit } from "../../audit";
import type { Db, Tx } from "../../db";
import { agents, type AdministratorRow } from "../../db/schema";
import { notFound } from "../../errors";
import type { UserDetail } from "../../../src/shared/schemas/users";
import { findUser } from "../../services/user-actions";
import { findUserDetail } from "./records";

type AgentChange = { agentType: string } | { commissionRateBp: number };

/** The agent row of `accountNumber`, locked for the rest of the transaction. */
async function lockAgent(tx: Tx, accountNumber: string) {
  const { id: userId } = await findUser(tx, { accountNumber });
  const [agent] = await tx.select().from(agents).where(eq(agents.userId, userId)).for("update");
  if (!agent) throw notFound("Agent");
  return { userId, agent };
}

/**
 * Changes one fact of a top-up agent and records it against the user (target table "users"), so
 * the user's history shows it. Setting the value it already has changes nothing and writes no
 * audit entry.
 */
export async function changeAgent(
  db: Db,
  actor: AdministratorRow,
  accountNumber: string,
  change: AgentChange,
  action: "agent.change_type" | "agent.change_commission",
): Promise<UserDetail> {
  const userId = await db.transaction(async (tx) => {
    const { userId, agent } = await lockAgent(tx, accountNumber);
    const before = { agentType: agent.agentType, commissionRateBp: agent.commissionRateBp };
    const after = { ...before, ...change };
    if (after.agentType === before.agentType && after.commissionRateBp === before.commissionRateBp)
      return userId;
    await tx.update(agents).set(change).where(eq(agents.userId, userId));
    await recordAudit(tx, {
      adminId: actor.id,
      action,
      targetTable: "users",
      targetId: userId,
      before,
      after,
    });
    return userId;
  });
  const detail = await findUserDetail(db, userId);
  if (!detail) throw notFound("User");
  return detail;
}
