import { useTranslation } from "react-i18next";

import { ModuleCreate } from "../../app/kit/generated-create";
import { topUps, type CounterTopUpBody } from "../../shared/modules/top-ups";
import { PolicyInForce } from "../wallet-policy/policy";
import { AccountHolderPanel, TopUpReview } from "./account-holder";

/**
 * A counter top-up, beside whose wallet the typed number names and the limits of the wallet
 * policy it must keep; nothing is credited before the staff member confirms the amount and the
 * holder's name (a typo must not credit a stranger).
 */
export default function CounterTopUp() {
  const { t } = useTranslation("topUp");
  return (
    <ModuleCreate
      module={topUps}
      aside={(values) => (
        <div style={{ flex: "1 1 360px" }}>
          <AccountHolderPanel accountNumber={values.accountNumber} />
          <PolicyInForce title={t("create.limits")} narrow />
        </div>
      )}
      review={(body) => {
        const { accountNumber, amountSen } = body as CounterTopUpBody;
        return {
          content: <TopUpReview accountNumber={accountNumber} amountSen={amountSen} />,
          okText: t("create.submit"),
        };
      }}
    />
  );
}
