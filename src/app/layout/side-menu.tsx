import { Badge, Flex, Menu, type MenuProps } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { canAccess } from "../../providers/access-control";
import { useChangeRequestCounts } from "../kit/change-request-counts";
import { useCurrentAdmin } from "../../providers/current-admin";
import { findMenuEntry, visibleMenu, type MenuEntry } from "../menu";
import { MENU } from "../registry";
import { shellPageId } from "../shell-pages";

type MenuItem = Required<MenuProps>["items"][number];

/** The module whose entry carries a count: the change requests waiting for this administrator. */
const COUNTED_MODULE = "change-requests";

/** What an entry's badge says: how many wait (`waiting`), read into its link's name too. */
interface Counted {
  waiting?: number;
  words: (count: number) => string;
}

function toItem(entry: MenuEntry, t: (key: string) => string, counted?: Counted): MenuItem {
  const Icon = entry.icon;
  const label = t(entry.label);
  if (entry.subMenu) {
    return {
      key: entry.code,
      icon: <Icon aria-hidden />,
      label,
      children: entry.subMenu.map((item) => toItem(item, t, counted)),
    };
  }
  const waiting = entry.module === COUNTED_MODULE ? (counted?.waiting ?? 0) : 0;
  return {
    key: entry.code,
    icon: <Icon aria-hidden />,
    // A real link: keyboard activation, a visible URL and "open in new tab" all work.
    label:
      waiting > 0 ? (
        // Its name is the label and the count in words (the badge's figure is for the eye only),
        // so the visible text starts the accessible name (WCAG 2.5.3).
        <Link to={entry.path ?? "/"}>
          <Flex component="span" justify="space-between" align="center" gap={8}>
            <span>
              {label}
              {/* The leading space keeps the words apart in every engine (Chromium adds one). */}
              <span className="visually-hidden"> ({counted!.words(waiting)})</span>
            </span>
            <span aria-hidden>
              <Badge count={waiting} overflowCount={99} size="small" />
            </span>
          </Flex>
        </Link>
      ) : (
        <Link to={entry.path ?? "/"}>{label}</Link>
      ),
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
  // Pending approvals shows how many changes wait for this administrator's decision.
  const counts = useChangeRequestCounts(admin?.id);
  const counted: Counted = {
    waiting: counts?.toCheck,
    words: (count) => t("dashboard:changeRequests.badge", { count }),
  };
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
        items={entries.map((entry) => toItem(entry, t, counted))}
        selectedKeys={current ? [current.entry.code] : []}
        // While collapsed, antd shows groups as fly-outs and ignores open keys.
        {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
      />
    </nav>
  );
}
