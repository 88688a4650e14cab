import {
  LogoutOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  UserOutlined,
} from "@ant-design/icons";
import { useGetIdentity, useLogout } from "@refinedev/core";
import { Button, Layout, Space, Tooltip, theme } from "antd";
import { useTranslation } from "react-i18next";
import type { AdminDto } from "../../providers/api-types";
import { LanguageSwitcher } from "./language-switcher";

interface ConsoleHeaderProps {
  /** A phone's header: the administrator's name as an icon with a tooltip, Logout as an icon. */
  compact?: boolean;
  collapsed: boolean;
  onToggleMenu: () => void;
  /** The id of the side navigation the toggle shows and hides. */
  menuId: string;
}

export function ConsoleHeader({ compact, collapsed, onToggleMenu, menuId }: ConsoleHeaderProps) {
  const { t } = useTranslation("common");
  const { token } = theme.useToken();
  const { data: admin } = useGetIdentity<AdminDto>();
  const { mutate: logout, isPending: loggingOut } = useLogout();

  return (
    <Layout.Header
      style={{
        display: "flex",
        alignItems: "center",
        justifyContent: "space-between",
        gap: 8,
        paddingInline: compact ? 8 : undefined,
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
        position: "sticky",
        top: 0,
        zIndex: 10,
      }}
    >
      <Button
        type="text"
        icon={collapsed ? <MenuUnfoldOutlined aria-hidden /> : <MenuFoldOutlined aria-hidden />}
        aria-label={t(collapsed ? "menu.expand" : "menu.collapse")}
        aria-expanded={!collapsed}
        aria-controls={menuId}
        onClick={onToggleMenu}
      />
      <Space size="small" wrap={false}>
        {admin && compact && (
          // The name in a tooltip: on hover, on keyboard focus, and on a tap (phones have no hover).
          <Tooltip title={admin.name} trigger={["hover", "focus", "click"]}>
            <UserOutlined role="img" aria-label={admin.name} tabIndex={0} style={{ padding: 4 }} />
          </Tooltip>
        )}
        {admin && !compact && (
          <span
            style={{
              fontWeight: 600,
              maxWidth: 220,
              overflow: "hidden",
              textOverflow: "ellipsis",
              whiteSpace: "nowrap",
            }}
            title={admin.name}
          >
            <UserOutlined aria-hidden style={{ marginInlineEnd: 6 }} />
            {admin.name}
          </span>
        )}
        <LanguageSwitcher />
        {compact ? (
          <Tooltip title={t("logout")}>
            <Button
              icon={<LogoutOutlined aria-hidden />}
              aria-label={t("logout")}
              loading={loggingOut}
              onClick={() => logout()}
            />
          </Tooltip>
        ) : (
          <Button
            icon={<LogoutOutlined aria-hidden />}
            loading={loggingOut}
            onClick={() => logout()}
          >
            {t("logout")}
          </Button>
        )}
      </Space>
    </Layout.Header>
  );
}
