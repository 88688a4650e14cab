import { walletPolicies } from "../../../src/shared/modules/wallet-policies";
import { errorResponses } from "../../../src/shared/schemas/common";
import type { ModuleEndpoints } from "../../kit/bind";
import { currentPolicy } from "../../services/ledger";

/**
 * `GET /api/wallet-policy`: the policy in force. Any administrator may read it (the counter
 * top-up shows its limits), so it needs a session only; changing it needs Wallet Policy (24).
 */
export const walletPolicyEndpoints: ModuleEndpoints = async (app, { db, bound }) => {
  app.get(
    "/api/wallet-policy",
    {
      config: { access: "session" },
      schema: {
        summary: "The wallet policy in force",
        response: { 200: walletPolicies.item, ...errorResponses(401) },
      },
    },
    async () => {
      const { id } = await currentPolicy(db);
      const policy = await bound.read(db, id);
      return policy as never;
    },
  );
};
