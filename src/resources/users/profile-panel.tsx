import { Descriptions } from "antd";
import { useTranslation } from "react-i18next";
import { Panel } from "../../app/components/panel";
import { formatDateTime } from "../../app/format";
import type { UserDto } from "../../providers/api-types";
import { ApprovalStatusTag, BannedTag, RoleTag, VipTag } from "./tags";

/** Only web addresses become links: a stored `javascript:` URL must never be clickable. */
const isWebAddress = (url: string) => /^https?:\/\//i.test(url);

/** Every field of the user's profile, as staff read it. */
export function ProfilePanel({ user }: { user: UserDto }) {
  const { t } = useTranslation("users");
  const none = t("none");
  const remark = (text: string | null) => text ?? t("show.noRemark");

  return (
    <Panel title={t("show.profile")}>
      <Descriptions column={1} size="small">
        <Descriptions.Item label={t("fields.accountNumber")}>
          {user.accountNumber}
        </Descriptions.Item>
        <Descriptions.Item label={t("fields.name")}>{user.name}</Descriptions.Item>
        <Descriptions.Item label={t("fields.email")}>{user.email ?? none}</Descriptions.Item>
        <Descriptions.Item label={t("fields.phone")}>{user.phone ?? none}</Descriptions.Item>
        <Descriptions.Item label={t("fields.role")}>
          <RoleTag role={user.role} />
        </Descriptions.Item>
        <Descriptions.Item label={t("fields.approvalStatus")}>
          <ApprovalStatusTag status={user.approvalStatus} />
        </Descriptions.Item>
        <Descriptions.Item label={t("fields.approvalRemark")}>
          {remark(user.approvalRemark)}
        </Descriptions.Item>
        <Descriptions.Item label={t("fields.isBanned")}>
          {user.isBanned ? <BannedTag /> : t("show.notBanned")}
        </Descriptions.Item>
        {user.isBanned && (
          <Descriptions.Item label={t("fields.banRemark")}>
            {remark(user.banRemark)}
          </Descriptions.Item>
        )}
        <Descriptions.Item label={t("fields.isVip")}>
          {user.isVip ? <VipTag /> : t("show.notVip")}
        </Descriptions.Item>
        <Descriptions.Item label={t("fields.url")}>
          {user.url && isWebAddress(user.url) ? (
            <a href={user.url} target="_blank" rel="noopener noreferrer">
              {user.url}
            </a>
          ) : (
            (user.url ?? none)
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t("fields.lastActiveAt")}>
          {formatDateTime(user.lastActiveAt, t("show.neverActive"))}
        </Descriptions.Item>
        <Descriptions.Item label={t("fields.createdAt")}>
          {formatDateTime(user.createdAt)}
        </Descriptions.Item>
        <Descriptions.Item label={t("fields.updatedAt")}>
          {formatDateTime(user.updatedAt)}
        </Descriptions.Item>
      </Descriptions>
    </Panel>
  );
}
