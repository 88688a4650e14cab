import { Descriptions } from "antd";
import { useTranslation } from "react-i18next";
import { Panel } from "../../app/components/panel";
import type { AgentFacts, RiderFacts } from "../../providers/api-types";
import { formatBasisPoints } from "../../shared/money";
import { RiderVerificationTag } from "./tags";

/**
 * Vehicle and agent types are open text in the database: the known ones are translated, any
 * other is shown as stored. Only plain words are looked up, so a stored value can never reach
 * another namespace or key path (i18next reads ":" and "." as separators).
 */
function useOpenValue() {
  const { t } = useTranslation("users");
  return (group: "vehicleType" | "agentType", value: string) =>
    /^[\w-]+$/.test(value) ? t(`${group}.${value}`, { defaultValue: value }) : value;
}

export function RiderPanel({ rider }: { rider: RiderFacts }) {
  const { t } = useTranslation("users");
  const openValue = useOpenValue();
  return (
    <Panel title={t("rider.title")}>
      <Descriptions column={1} size="small">
        <Descriptions.Item label={t("rider.vehicleType")}>
          {openValue("vehicleType", rider.vehicleType)}
        </Descriptions.Item>
        <Descriptions.Item label={t("rider.plate")}>{rider.plate}</Descriptions.Item>
        <Descriptions.Item label={t("rider.licenceNumber")}>
          {rider.licenceNumber}
        </Descriptions.Item>
        <Descriptions.Item label={t("rider.verificationStatus")}>
          <RiderVerificationTag status={rider.verificationStatus} />
        </Descriptions.Item>
        <Descriptions.Item label={t("rider.verificationRemarks")}>
          {rider.verificationRemarks ?? t("show.noRemark")}
        </Descriptions.Item>
      </Descriptions>
    </Panel>
  );
}

export function AgentPanel({ agent }: { agent: AgentFacts }) {
  const { t } = useTranslation("users");
  const openValue = useOpenValue();
  return (
    <Panel title={t("agent.title")}>
      <Descriptions column={1} size="small">
        <Descriptions.Item label={t("agent.agentType")}>
          {openValue("agentType", agent.agentType)}
        </Descriptions.Item>
        <Descriptions.Item label={t("agent.commissionRate")}>
          {formatBasisPoints(agent.commissionRateBp)}
        </Descriptions.Item>
      </Descriptions>
    </Panel>
  );
}
