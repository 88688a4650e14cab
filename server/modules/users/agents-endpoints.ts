import type { z } from "zod";

import { PERMISSION } from "../../../src/shared/permissions";
import {
  changeAgentCommissionBodySchema,
  changeAgentTypeBodySchema,
} from "../../../src/shared/schemas/agents";
import { errorResponses } from "../../../src/shared/schemas/common";
import { userDetailSchema } from "../../../src/shared/schemas/users";
import { currentAdmin } from "../../auth/access";
import { changeAgent } from "./agents";
import type { ModuleEndpoints } from "../../kit/bind";

const tags = ["agents"];

/** One change of an agent's facts: its call, its body, what it sets and how it is audited. */
interface AgentCall<Body extends z.ZodType> {
  path: string;
  thing: string;
  summary: string;
  body: Body;
  audit: Parameters<typeof changeAgent>[4];
  change: (body: z.output<Body>) => Parameters<typeof changeAgent>[3];
}

const call = <Body extends z.ZodType>(spec: AgentCall<Body>) => spec;

const AGENT_CALLS = [
  call({
    path: "change-agent-type",
    thing: "Change Agent Type",
    summary: "Change a top-up agent's type",
    body: changeAgentTypeBodySchema,
    audit: "agent.change_type",
    change: (body) => ({ agentType: body.agent_type }),
  }),
  call({
    path: "change-agent-commission",
    thing: "Change Agent Commission",
    summary: "Change a top-up agent's commission rate (a percentage, stored in basis points)",
    body: changeAgentCommissionBodySchema,
    audit: "agent.change_commission",
    change: (body) => ({ commissionRateBp: body.commission_rate }),
  }),
];

/** The User (0) module's top-up agent calls; each answers with the user's updated detail. */
export const agentEndpoints: ModuleEndpoints = async (app, { db }) => {
  for (const spec of AGENT_CALLS as AgentCall<z.ZodType>[]) {
    app.post(
      `/user-mgmt/agent/${spec.path}`,
      {
        config: { access: { permission: PERMISSION.user, thing: spec.thing } },
        schema: {
          tags,
          summary: spec.summary,
          body: spec.body,
          response: { 200: userDetailSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const body = request.body as { account_number: string };
        return changeAgent(
          db,
          currentAdmin(request),
          body.account_number,
          spec.change(body),
          spec.audit,
        );
      },
    );
  }
};
