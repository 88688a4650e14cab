import { Typography } from "antd";
import { useTranslation } from "react-i18next";

import { ModuleList } from "../../app/kit/module-list";
import { walletPolicies } from "../../shared/modules/wallet-policies";
import { PolicyInForce } from "./policy";

/**
 * The policy in force under the module's description, then every version before it (who, when,
 * why); the description is said once, above the policy, not again above the versions.
 */
export default function WalletPolicyPage() {
  const { t } = useTranslation("walletPolicy");
  return (
    <ModuleList
      module={walletPolicies}
      before={
        <>
          <Typography.Paragraph type="secondary">{t("list.description")}</Typography.Paragraph>
          <PolicyInForce title={t("inForce.title")} />
        </>
      }
      description={null}
      listTitle={t("list.history")}
    />
  );
}
