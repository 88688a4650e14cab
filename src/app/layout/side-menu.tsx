import { Menu, type MenuProps } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { canAccess } from "../../providers/access-control";
import { useCurrentAdmin } from "../../providers/current-admin";
import { findMenuEntry, visibleMenu, type MenuEntry } from "../menu";
import { MENU } from "../registry";
import { shellPageId } from "../shell-pages";

type MenuItem = Required<MenuProps>["items"][number];

function toItem(entry: MenuEntry, t: (key: string) => string): MenuItem {
  const Icon = entry.icon;
  const label = t(entry.label);
  if (entry.subMenu) {
    return {
      key: entry.code,
      icon: <Icon aria-hidden />,
      label,
      children: entry.subMenu.map((item) => toItem(item, t)),
    };
  }
  return {
    key: entry.code,
    icon: <Icon aria-hidden />,
    // A real link: keyboard activation, a visible URL and "open in new tab" all work.
    label: <Link to={entry.path ?? "/"}>{label}</Link>,
  };
}

/**
 * The side navigation, built from the one menu table. It renders nothing until the
 * administrator is known, so entries they may not use never flash into view.
 */
export function SideMenu({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation("menu");
  const { pathname, search } = useLocation();
  // The store the route guards read too: a refresh of the codes updates both at once.
  const admin = useCurrentAdmin();

  const entries = useMemo(
    () => (admin ? visibleMenu(MENU, (code) => canAccess(admin, code)) : []),
    [admin],
  );
  // A shell page (`?id=dashboard`) is what is on screen, so its entry is the one highlighted.
  const shellId = shellPageId(search);
  const current = findMenuEntry(entries, shellId ? `/${shellId}` : pathname);

  // The group holding the current page opens whenever the page moves into it; other groups
  // stay as the administrator left them.
  const activeGroup = current?.group?.code;
  const [openKeys, setOpenKeys] = useState<string[]>([]);
  const [revealedGroup, setRevealedGroup] = useState<string>();
  if (activeGroup !== revealedGroup) {
    setRevealedGroup(activeGroup);
    if (activeGroup && !openKeys.includes(activeGroup)) setOpenKeys([...openKeys, activeGroup]);
  }

  if (!admin) return null;

  return (
    <nav aria-label={t("common:navigation")}>
      <Menu
        mode="inline"
        theme="dark"
        items={entries.map((entry) => toItem(entry, t))}
        selectedKeys={current ? [current.entry.code] : []}
        // While collapsed, antd shows groups as fly-outs and ignores open keys.
        {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
      />
    </nav>
  );
}
