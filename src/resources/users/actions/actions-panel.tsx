import { Divider, Flex } from "antd";
import { useTranslation } from "react-i18next";
import { Panel } from "../../../app/components/panel";
import type { UserDetail } from "../../../providers/api-types";
import { BanToggle } from "./ban-toggle";
import { ResetPassword } from "./reset-password";
import { UrlEdit } from "./url-edit";
import { VipToggle } from "./vip-toggle";

/** What staff can do to a user: ban, VIP, reset password, URL. */
export function ActionsPanel({ user, onChanged }: { user: UserDetail; onChanged: () => void }) {
  const { t } = useTranslation("users");
  return (
    <Panel title={t("actions.title")}>
      <Flex gap={8} wrap>
        <BanToggle user={user} onChanged={onChanged} />
        <VipToggle user={user} onChanged={onChanged} />
        <ResetPassword user={user} onChanged={onChanged} />
      </Flex>
      <Divider style={{ margin: "16px 0" }} />
      <UrlEdit user={user} onChanged={onChanged} />
    </Panel>
  );
}
