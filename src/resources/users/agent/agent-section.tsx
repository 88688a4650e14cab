import { useCustomMutation } from "@refinedev/core";
import { Button, Descriptions, Flex, Form, Input, Select } from "antd";
import { useTranslation } from "react-i18next";
import { Panel } from "../../../app/components/panel";
import type { UserDetail } from "../../../providers/api-types";
import { AGENT_TYPES, percentToBasisPoints, type AgentType } from "../../../shared/agents";
import { formatBasisPoints } from "../../../shared/money";
import { riderErrorNotification } from "../rider/errors";
import { useRefreshUser } from "../rider/use-refresh";
import {
  AGENT_COMMISSION_URL,
  AGENT_TYPE_URL,
  agentCommissionBody,
  agentTypeBody,
} from "./requests";

const isAgentType = (value: string): value is AgentType =>
  (AGENT_TYPES as readonly string[]).includes(value);

/** The top-up agent's part of the user detail page: its type and commission rate. */
export function AgentSection({ user }: { user: UserDetail }) {
  const { t } = useTranslation("riders");
  if (user.role !== "agent" || !user.agent) return null;
  const { agent } = user;
  const typeLabel = (value: string) =>
    /^[\w-]+$/.test(value) ? t(`agent.type.${value}`, { defaultValue: value }) : value;
  return (
    <Panel title={t("agent.title")}>
      <Descriptions column={1} size="small">
        <Descriptions.Item label={t("agent.agentType")}>
          {typeLabel(agent.agentType)}
        </Descriptions.Item>
        <Descriptions.Item label={t("agent.commissionRate")}>
          <span data-testid="agent-commission">{formatBasisPoints(agent.commissionRateBp)}</span>
        </Descriptions.Item>
      </Descriptions>
      <Flex vertical gap={12} style={{ marginTop: 12 }}>
        <AgentTypeForm user={user} current={agent.agentType} />
        <CommissionForm user={user} />
      </Flex>
    </Panel>
  );
}

function AgentTypeForm({ user, current }: { user: UserDetail; current: string }) {
  const { t } = useTranslation("riders");
  const [form] = Form.useForm<{ agentType?: AgentType }>();
  const refreshUser = useRefreshUser(user);
  const { mutate, mutation } = useCustomMutation<UserDetail>();
  const submit = ({ agentType }: { agentType?: AgentType }) => {
    if (!agentType) return;
    mutate(
      {
        url: AGENT_TYPE_URL,
        method: "post",
        values: agentTypeBody(user.accountNumber, agentType),
        successNotification: {
          type: "success",
          message: t("agent.typeSaved", { type: t(`agent.type.${agentType}`) }),
        },
        errorNotification: riderErrorNotification(t, t("agent.typeFailed")),
      },
      { onSuccess: refreshUser },
    );
  };
  return (
    <Form
      form={form}
      layout="inline"
      onFinish={submit}
      initialValues={{ agentType: isAgentType(current) ? current : undefined }}
      style={{ rowGap: 8 }}
    >
      <Form.Item
        name="agentType"
        label={t("agent.newType")}
        rules={[{ required: true, message: t("agent.typeRequired") }]}
      >
        <Select
          style={{ minWidth: 160 }}
          options={AGENT_TYPES.map((value) => ({ value, label: t(`agent.type.${value}`) }))}
        />
      </Form.Item>
      <Form.Item>
        <Button htmlType="submit" loading={mutation.isPending}>
          {t("agent.saveType")}
        </Button>
      </Form.Item>
    </Form>
  );
}

function CommissionForm({ user }: { user: UserDetail }) {
  const { t } = useTranslation("riders");
  const [form] = Form.useForm<{ commission: string }>();
  const refreshUser = useRefreshUser(user);
  const { mutate, mutation } = useCustomMutation<UserDetail>();
  const submit = ({ commission }: { commission: string }) => {
    const body = agentCommissionBody(user.accountNumber, commission);
    if (!body) return;
    mutate(
      {
        url: AGENT_COMMISSION_URL,
        method: "post",
        values: body,
        successNotification: {
          type: "success",
          message: t("agent.commissionSaved", {
            rate: formatBasisPoints(percentToBasisPoints(body.commission_rate) ?? 0),
          }),
        },
        errorNotification: riderErrorNotification(t, t("agent.commissionFailed")),
      },
      {
        onSuccess: () => {
          form.resetFields();
          refreshUser();
        },
      },
    );
  };
  return (
    <Form form={form} layout="inline" onFinish={submit} style={{ rowGap: 8 }}>
      <Form.Item
        name="commission"
        label={t("agent.newCommission")}
        rules={[
          {
            validator: (_, value: string | undefined) =>
              agentCommissionBody(user.accountNumber, value ?? "")
                ? Promise.resolve()
                : Promise.reject(new Error(t("agent.commissionInvalid"))),
          },
        ]}
      >
        <Input inputMode="decimal" suffix="%" style={{ width: 140 }} />
      </Form.Item>
      <Form.Item>
        <Button htmlType="submit" type="primary" loading={mutation.isPending}>
          {t("agent.saveCommission")}
        </Button>
      </Form.Item>
    </Form>
  );
}
