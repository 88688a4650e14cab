import { CrownOutlined } from "@ant-design/icons";
import { Tag } from "antd";
import { useTranslation } from "react-i18next";
import { STATUS_COLOURS } from "../../app/theme";
import { ADMIN_STATUSES, type AdminStatus } from "../../shared/domain";

export { ADMIN_STATUSES };

export function AdminStatusTag({ status }: { status: AdminStatus }) {
  const { t } = useTranslation("admin");
  return (
    <Tag style={{ ...STATUS_COLOURS[status], marginInlineEnd: 0 }}>{t(`status.${status}`)}</Tag>
  );
}

/** Marks super administrators, whose permissions and status nobody can change. */
export function SuperAdminTag() {
  const { t } = useTranslation("admin");
  return (
    <Tag
      icon={<CrownOutlined aria-hidden />}
      style={{ color: "#014f86", background: "#e6f4ff", borderColor: "#91caff" }}
    >
      {t("superAdmin")}
    </Tag>
  );
}
