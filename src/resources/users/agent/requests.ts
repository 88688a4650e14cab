/** The agent calls of the user detail page as plain request descriptions (hooks and tests). */
import { percentToBasisPoints, type AgentType } from "../../../shared/agents";

export const AGENT_TYPE_URL = "/user-mgmt/agent/change-agent-type";
export const AGENT_COMMISSION_URL = "/user-mgmt/agent/change-agent-commission";

export const agentTypeBody = (accountNumber: string, agentType: AgentType) => ({
  account_number: accountNumber,
  agent_type: agentType,
});

/**
 * The commission body, or undefined when the text is not a percentage from 0 to 100 with at most
 * two decimals (the shared parser decides, as the server does). The text is sent as written.
 */
export function agentCommissionBody(accountNumber: string, percent: string) {
  const text = percent.trim();
  if (text === "" || percentToBasisPoints(text) === undefined) return undefined;
  return { account_number: accountNumber, commission_rate: text };
}
