import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

import { walletPolicies } from "../../src/shared/modules/wallet-policies";
import { errorResponses } from "../../src/shared/schemas/common";
import { currentPolicy } from "../services/ledger";
import { walletPoliciesModule } from "../services/wallet-policies";
import type { RouteDeps } from "./types";

/**
 * `GET /api/wallet-policy`: the policy in force. Any administrator may read it (the counter
 * top-up shows its limits); changing it needs Wallet Policy (24).
 */
export const walletPolicyRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.get(
    "/api/wallet-policy",
    {
      config: { access: "session" },
      schema: {
        tags: ["wallet-policies"],
        summary: "The wallet policy in force",
        response: { 200: walletPolicies.item, ...errorResponses(401) },
      },
    },
    async () => {
      const { id } = await currentPolicy(db);
      const policy = await walletPoliciesModule.read(db, id);
      return policy as never;
    },
  );
};
