/**
 * UCSI IDs: a student's or staff member's UCSI ID linked to a wallet account, linked one by one
 * (the kit's create form) or imported from a CSV file (./rules.ts, ./endpoints.ts), and revoked.
 */
import { eq, sql } from "drizzle-orm";

import type { RemarkBody } from "../../../src/shared/kit/module";
import { ucsiIds as ucsiIdsDecl, type LinkUcsiIdBody } from "../../../src/shared/modules/ucsi-ids";
import type { Tx } from "../../db";
import { ucsiIds, users } from "../../db/schema";
import { HttpError } from "../../errors";
import { adminNameOf, bindModule, type ActionContext } from "../../kit/bind";
import { ucsiIdEndpoints } from "./endpoints";
import { linkConflict } from "./rules";

async function link(tx: Tx, { actor, body }: { actor: { id: number }; body: LinkUcsiIdBody }) {
  const accountNumber = body.accountNumber.toUpperCase();
  const [user] = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.accountNumber, accountNumber));
  if (!user) throw new HttpError(400, "No wallet account has this number", "UNKNOWN_ACCOUNT");
  const [taken] = await tx
    .select({ ucsiId: ucsiIds.ucsiId, userId: ucsiIds.userId })
    .from(ucsiIds)
    .where(
      sql`${ucsiIds.status} = 'active' and (${ucsiIds.ucsiId} = ${body.ucsiId} or ${ucsiIds.userId} = ${user.id})`,
    )
    .limit(1);
  if (taken) {
    throw linkConflict({
      code: "23505",
      constraint:
        taken.ucsiId === body.ucsiId
          ? "ucsi_ids_active_ucsi_id_key"
          : "ucsi_ids_active_user_id_key",
    })!;
  }
  try {
    const [row] = await tx
      .insert(ucsiIds)
      .values({ ucsiId: body.ucsiId, type: body.type, userId: user.id, linkedBy: actor.id })
      .returning({ id: ucsiIds.id });
    return row!.id;
  } catch (error) {
    throw linkConflict(error) ?? error;
  }
}

async function revoke(tx: Tx, { actor, id, body }: ActionContext<RemarkBody>) {
  await tx
    .update(ucsiIds)
    .set({ status: "revoked", revokedAt: new Date(), revokedBy: actor.id, remark: body.remark })
    .where(eq(ucsiIds.id, id));
}

export const ucsiIdsModule = bindModule(ucsiIdsDecl, {
  table: ucsiIds,
  joins: [{ table: users, on: eq(users.id, ucsiIds.userId), exactlyOne: true }],
  columns: {
    accountNumber: users.accountNumber,
    userName: users.name,
    linkedByName: adminNameOf(ucsiIds.linkedBy),
    revokedByName: adminNameOf(ucsiIds.revokedBy),
  },
  actions: { revoke },
  create: link,
  endpoints: ucsiIdEndpoints,
});
