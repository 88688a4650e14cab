import { StarOutlined } from "@ant-design/icons";
import { Button, Popconfirm } from "antd";
import { useTranslation } from "react-i18next";
import type { UserDetail } from "../../../providers/api-types";
import { vipRequest } from "./requests";
import { useUserAction } from "./use-user-action";

/** Makes a user a VIP, or not, after confirmation. */
export function VipToggle({ user, onChanged }: { user: UserDetail; onChanged: () => void }) {
  const { t } = useTranslation("users");
  const { run, pending } = useUserAction();
  const name = user.name;
  const setting = !user.isVip;

  const send = async () => {
    const done = await run(vipRequest(user.accountNumber, setting), {
      success: t(setting ? "actions.vip.set" : "actions.vip.cleared", { name }),
      failed: t("actions.vip.failed", { name }),
    });
    if (done !== undefined) onChanged();
  };

  return (
    <Popconfirm
      title={t(setting ? "actions.vip.setTitle" : "actions.vip.clearTitle", { name })}
      okText={t(setting ? "actions.vip.setButton" : "actions.vip.clearButton")}
      cancelText={t("actions.cancel")}
      onConfirm={send}
    >
      <Button icon={<StarOutlined aria-hidden />} loading={pending}>
        {t(setting ? "actions.vip.setButton" : "actions.vip.clearButton")}
      </Button>
    </Popconfirm>
  );
}
