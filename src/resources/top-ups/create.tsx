import { useTranslation } from "react-i18next";

import { ModuleCreate } from "../../app/kit/generated-create";
import { topUps } from "../../shared/modules/top-ups";
import { PolicyInForce } from "../wallet-policy/policy";

/** A counter top-up, beside the limits of the wallet policy it must keep. */
export default function CounterTopUp() {
  const { t } = useTranslation("topUp");
  return (
    <ModuleCreate
      module={topUps}
      aside={
        <div style={{ flex: "1 1 360px" }}>
          <PolicyInForce title={t("create.limits")} narrow />
        </div>
      }
    />
  );
}
