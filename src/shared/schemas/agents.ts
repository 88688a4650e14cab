import { z } from "zod";

import { AGENT_TYPES, COMMISSION_RATE_MESSAGE, percentToBasisPoints } from "../agents";
import { accountNumberSchema } from "./common";
import { crossFieldRule } from "./rules";

/** The users module's agent-type action: the type staff choose (PATCH /api/users/{id}/agent-type). */
export const agentTypeBodySchema = z
  .strictObject({ agentType: z.enum(AGENT_TYPES) })
  .meta({ id: "AgentTypeBody" });

/** The users module's agent-commission action: the rate in basis points (100 bp = 1 %). */
export const agentCommissionBodySchema = z
  .strictObject({
    commissionRateBp: z
      .number()
      .int()
      .min(0)
      .max(10_000)
      .describe("Commission in basis points, 0 to 10000 (100 bp = 1 %)"),
  })
  .meta({ id: "AgentCommissionBody" });

/** The seed's call: the agent by account number, the type under its snake_case name. */
export const changeAgentTypeBodySchema = z.strictObject({
  account_number: accountNumberSchema,
  agent_type: z.enum(AGENT_TYPES),
});
export type ChangeAgentTypeBody = z.output<typeof changeAgentTypeBodySchema>;

export const changeAgentCommissionBodySchema = z.strictObject({
  account_number: accountNumberSchema,
  // The transform is the check; the statement says what it accepts.
  commission_rate: crossFieldRule(
    z
      .union([z.number(), z.string()], COMMISSION_RATE_MESSAGE)
      .transform((value, context) => {
        const basisPoints = percentToBasisPoints(value);
        if (basisPoints === undefined) {
          context.addIssue({ code: "custom", message: COMMISSION_RATE_MESSAGE });
          return z.NEVER;
        }
        return basisPoints;
      })
      .describe('A percentage from 0 to 100 with at most two decimals, e.g. 12.5 or "12.50"'),
    {
      fields: ["commission_rate"],
      rule: 'commission_rate: a percentage from 0 to 100 with at most two decimals (12.5 or "12.50")',
    },
  ),
});
export type ChangeAgentCommissionBody = z.output<typeof changeAgentCommissionBodySchema>;
