import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

import { walletPolicies, type WalletPolicyBody } from "../../src/shared/modules/wallet-policies";
import { errorResponses } from "../../src/shared/schemas/common";
import type { Tx } from "../db";
import { walletPolicies as policies } from "../db/schema";
import { adminNameOf, bindModule } from "../kit/bind";
import type { RouteDeps } from "../routes/types";
import { currentPolicy } from "./ledger";

/** A new version takes effect at once: the next top-up and the dormant list read it. */
async function addVersion(
  tx: Tx,
  { actor, body }: { actor: { id: number }; body: WalletPolicyBody },
) {
  const [row] = await tx
    .insert(policies)
    .values({ ...body, remark: body.remark || null, adminId: actor.id })
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
});

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
