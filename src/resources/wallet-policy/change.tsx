import { Skeleton, Table, Typography } from "antd";
import { useTranslation } from "react-i18next";

import { QueryError } from "../../app/components/query-error";
import { displayText } from "../../app/kit/cells";
import { ModuleCreate } from "../../app/kit/generated-create";
import { fieldLabel } from "../../app/kit/texts";
import { walletPolicies, type WalletPolicyDto } from "../../shared/modules/wallet-policies";
import { POLICY_LIMITS, usePolicyInForce } from "./policy";

/**
 * A new policy version, starting from the one in force; before it is saved, every limit is shown
 * old → new, the changed ones marked, and an unchanged policy cannot be saved.
 */
export default function ChangePolicy() {
  const { t } = useTranslation(["walletPolicy", "kit"]);
  const { query, result } = usePolicyInForce();
  if (query.isError) {
    return (
      <QueryError
        error={query.error}
        onRetry={() => void query.refetch()}
        title={t("inForce.loadFailed")}
      />
    );
  }
  // useCustom answers `{}` until the policy has arrived: the form must start from the real one.
  if (!query.isSuccess) return <Skeleton active />;
  const current = result.data as WalletPolicyDto;
  const text = (field: string, value: unknown) => displayText(t, walletPolicies, field, value);
  return (
    <ModuleCreate
      module={walletPolicies}
      initialValues={Object.fromEntries(POLICY_LIMITS.map((field) => [field, current[field]]))}
      review={(body) => {
        const rows = POLICY_LIMITS.map((field) => ({
          field,
          label: fieldLabel(t, walletPolicies, field),
          old: text(field, current[field]),
          next: text(field, body[field]),
          changed: current[field] !== body[field],
        }));
        return {
          unchanged: rows.every((row) => !row.changed),
          content: (
            <Table
              size="small"
              pagination={false}
              rowKey="field"
              dataSource={rows}
              style={{ marginBottom: 12 }}
              columns={[
                { title: t("review.limit"), dataIndex: "label" },
                { title: t("review.old"), dataIndex: "old" },
                {
                  title: t("review.new"),
                  dataIndex: "next",
                  render: (value: string, row) =>
                    row.changed ? <Typography.Text strong>{value}</Typography.Text> : value,
                },
                {
                  title: t("review.changed"),
                  dataIndex: "changed",
                  render: (changed: boolean) => (changed ? t("review.yes") : ""),
                },
              ]}
            />
          ),
        };
      }}
    />
  );
}
