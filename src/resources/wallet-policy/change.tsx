import { Skeleton, Table, Typography } from "antd";
import { useTranslation } from "react-i18next";

import { displayText } from "../../app/kit/cells";
import { ModuleCreate } from "../../app/kit/generated-create";
import { fieldLabel } from "../../app/kit/texts";
import { walletPolicies } from "../../shared/modules/wallet-policies";
import { POLICY_LIMITS, usePolicyInForce } from "./policy";

/** Whether two values of a policy are the same (lists whatever their order). */
const sameValue = (a: unknown, b: unknown) =>
  Array.isArray(a) && Array.isArray(b)
    ? JSON.stringify([...a].sort()) === JSON.stringify([...b].sort())
    : a === b;

/**
 * A new policy version, starting from the one in force; before it is saved, every limit is shown
 * old → new, the changed ones marked, and an unchanged policy cannot be saved.
 */
export default function ChangePolicy() {
  const { t } = useTranslation(["walletPolicy", "kit"]);
  const { policy: current, failure } = usePolicyInForce();
  if (failure) return failure;
  // The form must start from the policy in force, not from nothing.
  if (!current) return <Skeleton active />;
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
          // A list (four eyes off for) is the same list whatever its order.
          changed: !sameValue(current[field], body[field]),
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
