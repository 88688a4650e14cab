import { walletPolicies, type WalletPolicyBody } from "../../../src/shared/modules/wallet-policies";
import type { Tx } from "../../db";
import { walletPolicies as policies } from "../../db/schema";
import { adminNameOf, bindModule } from "../../kit/bind";
import { currentPolicy } from "../../services/ledger";
import { walletPolicyEndpoints } from "./endpoints";

/**
 * A new version takes effect at once: the next top-up and the dormant list read it. A four-eyes
 * threshold the body leaves out stays as the version in force has it.
 */
async function addVersion(
  tx: Tx,
  { actor, body }: { actor: { id: number }; body: WalletPolicyBody },
) {
  const inForce = await currentPolicy(tx);
  const [row] = await tx
    .insert(policies)
    .values({
      ...body,
      fourEyesTopUpAboveSen: body.fourEyesTopUpAboveSen ?? inForce.fourEyesTopUpAboveSen,
      fourEyesRefundAboveSen: body.fourEyesRefundAboveSen ?? inForce.fourEyesRefundAboveSen,
      remark: body.remark || null,
      adminId: actor.id,
    })
    .returning({ id: policies.id });
  return row!.id;
}

/** The versions, newest first, each with the administrator who made it. */
export const walletPoliciesModule = bindModule(walletPolicies, {
  table: policies,
  columns: {
    adminName: adminNameOf(policies.adminId),
  },
  create: addVersion,
  endpoints: walletPolicyEndpoints,
});
