import { walletPolicies, type WalletPolicyBody } from "../../../src/shared/modules/wallet-policies";
import type { Tx } from "../../db";
import { walletPolicies as policies } from "../../db/schema";
import { adminNameOf, bindModule } from "../../kit/bind";
import { refuseFourEyesOff } from "../../kit/four-eyes";
import { currentPolicy } from "../../services/ledger";
import { walletPolicyEndpoints } from "./endpoints";

/**
 * A new version takes effect at once: the next top-up and the dormant list read it. A four-eyes
 * threshold, or the list of changes four eyes is off for, that the body leaves out stays as the
 * version in force has it; a change four eyes may not be turned off for is refused (400).
 */
async function addVersion(
  tx: Tx,
  { actor, body }: { actor: { id: number }; body: WalletPolicyBody },
) {
  const inForce = await currentPolicy(tx);
  if (body.fourEyesOff) refuseFourEyesOff(body.fourEyesOff, walletPolicies.name);
  const [row] = await tx
    .insert(policies)
    .values({
      ...body,
      fourEyesTopUpAboveSen: body.fourEyesTopUpAboveSen ?? inForce.fourEyesTopUpAboveSen,
      fourEyesRefundAboveSen: body.fourEyesRefundAboveSen ?? inForce.fourEyesRefundAboveSen,
      fourEyesOff: body.fourEyesOff ?? inForce.fourEyesOff,
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
