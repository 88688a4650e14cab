import { Descriptions, Empty } from "antd";
import { useTranslation } from "react-i18next";
import { Panel } from "../../app/components/panel";
import type { UserWallet } from "../../providers/api-types";
import { formatRinggit } from "../../shared/money";
import { WalletStatusTag } from "./tags";

/** The user's wallet: balance and status, or a note that none was opened yet. */
export function WalletPanel({ wallet }: { wallet: UserWallet | null }) {
  const { t } = useTranslation("users");
  return (
    <Panel title={t("wallet.title")}>
      {wallet ? (
        <Descriptions column={1} size="small">
          <Descriptions.Item label={t("wallet.balance")}>
            <strong style={{ fontSize: 18 }}>{formatRinggit(wallet.balanceSen)}</strong>
          </Descriptions.Item>
          <Descriptions.Item label={t("wallet.status")}>
            <WalletStatusTag status={wallet.status} />
          </Descriptions.Item>
        </Descriptions>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("wallet.none")} />
      )}
    </Panel>
  );
}
