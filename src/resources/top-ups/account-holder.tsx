import { useCustom, type HttpError } from "@refinedev/core";
import { Alert, Descriptions, Skeleton, Space, Tag, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

import { Panel } from "../../app/components/panel";
import { valueLabel } from "../../app/kit/texts";
import { formatRinggit } from "../../shared/money";
import type { AccountHolder } from "../../shared/modules/top-ups";
import { users } from "../../shared/modules/users";

/** How long typing must pause before the number is looked up. */
const PAUSE_MS = 300;

/** A number is looked up once it could be one (the shortest account numbers have 4 characters). */
const MIN_LENGTH = 4;

/**
 * Whose wallet `accountNumber` names, looked up once typing pauses: undefined while there is no
 * number to look up, else the query (404: no wallet has it).
 */
export function useAccountHolder(accountNumber: unknown) {
  const typed = typeof accountNumber === "string" ? accountNumber.trim() : "";
  const [settled, setSettled] = useState(typed);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(typed), PAUSE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const wanted = settled.length >= MIN_LENGTH && settled === typed;
  const { query, result } = useCustom<AccountHolder, HttpError>({
    url: "/api/top-up-transactions/account-holder",
    method: "get",
    config: { query: { accountNumber: settled } },
    queryOptions: { enabled: wanted, retry: false },
    errorNotification: false,
  });
  if (!wanted) return undefined;
  return {
    loading: query.isLoading,
    holder: query.isSuccess ? result.data : undefined,
    unknown: query.error?.statusCode === 404,
    failed: query.isError && query.error?.statusCode !== 404,
  };
}

/** The account holder a counter top-up would credit: name, role, state and balance. */
export function AccountHolderPanel({ accountNumber }: { accountNumber: unknown }) {
  const { t } = useTranslation(["topUp", "users", "kit"]);
  const found = useAccountHolder(accountNumber);
  return (
    <Panel title={t("create.holderTitle")} style={{ marginBottom: 16 }}>
      {!found ? (
        <Typography.Text type="secondary">{t("create.holderTyping")}</Typography.Text>
      ) : found.loading ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : found.unknown ? (
        <Alert type="warning" showIcon message={t("create.holderUnknown")} role="status" />
      ) : found.failed || !found.holder ? (
        <Alert type="error" showIcon message={t("create.holderFailed")} />
      ) : (
        <HolderFacts holder={found.holder} />
      )}
    </Panel>
  );
}

function HolderFacts({ holder }: { holder: AccountHolder }) {
  const { t } = useTranslation(["topUp", "users", "kit"]);
  const word = (field: string, value: string) => valueLabel(t, users, field, value);
  const warnings = [
    holder.isBanned && t("create.holderBanned"),
    holder.approvalStatus !== "approved" &&
      t("create.holderNotApproved", { status: word("approvalStatus", holder.approvalStatus) }),
    holder.walletStatus !== "active" && t("create.holderWalletNotActive"),
  ].filter((text): text is string => Boolean(text));
  return (
    <Space direction="vertical" style={{ width: "100%" }} aria-live="polite">
      <Descriptions column={1} size="small">
        <Descriptions.Item label={t("fields.userName")}>
          <Typography.Text strong>{holder.name}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t("users:fields.role")}>
          <Tag>{word("role", holder.role)}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t("create.holderBalance")}>
          {formatRinggit(holder.balanceSen)}
        </Descriptions.Item>
      </Descriptions>
      {warnings.map((text) => (
        <Alert key={text} type="warning" showIcon message={text} />
      ))}
    </Space>
  );
}

/** The confirmation of a counter top-up: the amount and whose wallet it credits. */
export function TopUpReview({
  accountNumber,
  amountSen,
}: {
  accountNumber: string;
  amountSen: number;
}) {
  const { t } = useTranslation("topUp");
  const found = useAccountHolder(accountNumber);
  const amount = formatRinggit(amountSen);
  if (!found || found.loading) return <Skeleton active paragraph={{ rows: 1 }} />;
  if (!found.holder) {
    return (
      <Alert
        type="warning"
        showIcon
        message={t(found.unknown ? "create.reviewUnknown" : "create.holderFailed", {
          accountNumber,
        })}
      />
    );
  }
  return (
    <Typography.Paragraph>
      {t("create.review", {
        amount,
        name: found.holder.name,
        accountNumber: found.holder.accountNumber,
      })}
    </Typography.Paragraph>
  );
}
