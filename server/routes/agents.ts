import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

import { PERMISSION } from "../../src/shared/permissions";
import { currentAdmin } from "../auth/access";
import {
  changeAgentCommissionBodySchema,
  changeAgentTypeBodySchema,
} from "../../src/shared/schemas/agents";
import { errorResponses } from "../../src/shared/schemas/common";
import { userDetailSchema } from "../../src/shared/schemas/users";
import { changeAgent } from "../services/agents";
import type { RouteDeps } from "./types";

const access = (thing: string) => ({ permission: PERMISSION.user, thing });
const tags = ["agents"];

/** The User (0) module's top-up agent calls; each answers with the user's updated detail. */
export const agentsRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.post(
    "/user-mgmt/agent/change-agent-type",
    {
      config: { access: access("Change Agent Type") },
      schema: {
        tags,
        summary: "Change a top-up agent's type",
        body: changeAgentTypeBodySchema,
        response: { 200: userDetailSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      changeAgent(
        db,
        currentAdmin(request),
        request.body.account_number,
        { agentType: request.body.agent_type },
        "agent.change_type",
      ),
  );

  app.post(
    "/user-mgmt/agent/change-agent-commission",
    {
      config: { access: access("Change Agent Commission") },
      schema: {
        tags,
        summary: "Change a top-up agent's commission rate (a percentage, stored in basis points)",
        body: changeAgentCommissionBodySchema,
        response: { 200: userDetailSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      changeAgent(
        db,
        currentAdmin(request),
        request.body.account_number,
        { commissionRateBp: request.body.commission_rate },
        "agent.change_commission",
      ),
  );
};
