import { Descriptions } from "antd";
import { useTranslation } from "react-i18next";
import { Panel } from "../../../app/components/panel";
import type { UserDetail } from "../../../providers/api-types";
import { valueLabel } from "../../../app/kit/texts";
import { formatBasisPoints } from "../../../shared/money";
import { users } from "../../../shared/modules/users";
import { UserActionButtons } from "../actions/actions-panel";
import { useRefreshUser } from "../rider/use-refresh";

/**
 * The top-up agent's part of the user detail page: its type and commission rate, and the users
 * declaration's agent actions (change the type, change the commission) on them.
 */
export function AgentSection({ user }: { user: UserDetail }) {
  const { t } = useTranslation(["riders", "users"]);
  const refreshUser = useRefreshUser(user);
  if (user.role !== "agent" || !user.agent) return null;
  const { agent } = user;
  // The type in the words of the dialog that changes it (the users module's).
  const typeLabel = (value: string) => valueLabel(t, users, "agentType", value);
  return (
    <Panel
      title={t("agent.title")}
      extra={
        <UserActionButtons
          row={{ ...user, ...agent }}
          only={["agentType", "agentCommission"]}
          onDecided={refreshUser}
        />
      }
    >
      <Descriptions column={1} size="small">
        <Descriptions.Item label={t("agent.agentType")}>
          {typeLabel(agent.agentType)}
        </Descriptions.Item>
        <Descriptions.Item label={t("agent.commissionRate")}>
          <span data-testid="agent-commission">{formatBasisPoints(agent.commissionRateBp)}</span>
        </Descriptions.Item>
      </Descriptions>
    </Panel>
  );
}
