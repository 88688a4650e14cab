import { eq } from "drizzle-orm";

import type { AgentFacts } from "../../../src/shared/schemas/users";
import { userDetailSchema } from "../../../src/shared/schemas/users";
import type { DbOrTx, Tx } from "../../db";
import { agents } from "../../db/schema";
import { notFound } from "../../errors";
import type { ActionBinding } from "../../kit/bind";
import { findUserDetail } from "./records";

/**
 * A user's agent terms (the declaration's `of`): the record the agent actions change, 404
 * "Agent not found" for a user without them; the audit entry keeps them before and after.
 */
async function agentTerms(tx: Tx, userId: number) {
  const [terms] = await tx
    .select({ agentType: agents.agentType, commissionRateBp: agents.commissionRateBp })
    .from(agents)
    .where(eq(agents.userId, userId));
  return terms;
}

/** The seed's agent calls answer with the user's whole detail, read after the change. */
const userDetailAnswer = {
  response: userDetailSchema,
  read: async (db: DbOrTx, id: number) => {
    const detail = await findUserDetail(db, id);
    if (!detail) throw notFound("User");
    return detail;
  },
};

const changeTerms = (tx: Tx, userId: number, change: Partial<AgentFacts>) =>
  tx.update(agents).set(change).where(eq(agents.userId, userId));

export const agentTypeAction: ActionBinding<{ agentType: string }> = {
  run: (tx, { id, body }) => changeTerms(tx, id, { agentType: body.agentType }).then(() => {}),
  record: agentTerms,
  answer: userDetailAnswer,
};

export const agentCommissionAction: ActionBinding<{ commissionRateBp: number }> = {
  run: (tx, { id, body }) =>
    changeTerms(tx, id, { commissionRateBp: body.commissionRateBp }).then(() => {}),
  record: agentTerms,
  answer: userDetailAnswer,
};
