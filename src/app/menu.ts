import {
  AccountBookOutlined,
  AppstoreOutlined,
  AuditOutlined,
  BarChartOutlined,
  BellOutlined,
  CarOutlined,
  ContactsOutlined,
  ControlOutlined,
  DashboardOutlined,
  EnvironmentOutlined,
  FieldTimeOutlined,
  FileDoneOutlined,
  FileSyncOutlined,
  FileTextOutlined,
  FlagOutlined,
  FundOutlined,
  GlobalOutlined,
  HourglassOutlined,
  IdcardOutlined,
  NotificationOutlined,
  ReconciliationOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  ShopOutlined,
  SoundOutlined,
  TeamOutlined,
  UserOutlined,
  WalletOutlined,
} from "@ant-design/icons";
import type { ComponentType } from "react";
import { PERMISSION } from "../shared/permissions";

/**
 * One row of the side navigation (docs/backoffice.md describes it; this table is its only copy).
 * `label` is a translation key; `alias` lists other path prefixes (detail and edit pages) that
 * belong to the entry; `permissionCode: null` means every administrator may see it.
 */
export interface MenuEntry {
  code: string;
  label: string;
  path?: string;
  permissionCode: number | null;
  alias?: string[];
  subMenu?: MenuEntry[];
  icon: ComponentType;
}

type SubMenuRow = Omit<MenuEntry, "permissionCode" | "subMenu">;

/** A group's items inherit its permission code, so a group can never show a child it forbids. */
function group(row: Omit<MenuEntry, "path" | "alias" | "subMenu">, items: SubMenuRow[]): MenuEntry {
  return {
    ...row,
    subMenu: items.map((item) => ({ ...item, permissionCode: row.permissionCode })),
  };
}

export const MENU: readonly MenuEntry[] = [
  {
    code: "dashboard",
    label: "menu:dashboard",
    path: "/dashboard",
    permissionCode: null,
    icon: DashboardOutlined,
  },
  {
    code: "statistic",
    label: "menu:statistic",
    path: "/statistic",
    permissionCode: PERMISSION.statistic,
    icon: BarChartOutlined,
  },
  {
    code: "admin",
    label: "menu:admin",
    path: "/admin-mgmt",
    permissionCode: PERMISSION.admin,
    alias: ["/manage-admin"],
    icon: SafetyCertificateOutlined,
  },
  group({ code: "user", label: "menu:user", permissionCode: PERMISSION.user, icon: UserOutlined }, [
    {
      code: "user-approval",
      label: "menu:user-approval",
      path: "/user-approval",
      icon: AuditOutlined,
    },
    {
      code: "user-mgmt",
      label: "menu:user-mgmt",
      path: "/user-mgmt",
      alias: ["/user-details"],
      icon: TeamOutlined,
    },
    {
      code: "user-change-contact",
      label: "menu:user-change-contact",
      path: "/user-change-contact",
      icon: ContactsOutlined,
    },
  ]),
  group(
    {
      code: "business",
      label: "menu:business",
      permissionCode: PERMISSION.business,
      icon: ShopOutlined,
    },
    [
      {
        code: "business-approval",
        label: "menu:business-approval",
        path: "/business-approval",
        icon: FileDoneOutlined,
      },
      {
        code: "business-mgmt",
        label: "menu:business-mgmt",
        path: "/business-mgmt",
        alias: ["/business-details"],
        icon: AppstoreOutlined,
      },
      {
        code: "business-update",
        label: "menu:business-update",
        path: "/business-update",
        alias: ["/business-update-details"],
        icon: FileSyncOutlined,
      },
    ],
  ),
  group(
    {
      code: "settlement",
      label: "menu:settlement",
      permissionCode: PERMISSION.settlement,
      icon: AccountBookOutlined,
    },
    [
      {
        code: "merchant-transaction-summary",
        label: "menu:merchant-transaction-summary",
        path: "/merchant-transaction-summary",
        icon: FundOutlined,
      },
      {
        code: "settlement-record",
        label: "menu:settlement-record",
        path: "/settlement-record",
        alias: ["/settlement-details"],
        icon: ReconciliationOutlined,
      },
    ],
  ),
  {
    code: "top-up-transaction",
    label: "menu:top-up-transaction",
    path: "/top-up-transaction",
    permissionCode: PERMISSION.topUp,
    icon: WalletOutlined,
  },
  {
    code: "content-mgmt",
    label: "menu:content-mgmt",
    path: "/content-mgmt",
    permissionCode: PERMISSION.contentMgmt,
    alias: ["/manage-content", "/content-details"],
    icon: FileTextOutlined,
  },
  {
    code: "user-report",
    label: "menu:user-report",
    path: "/user-report",
    permissionCode: PERMISSION.report,
    icon: FlagOutlined,
  },
  {
    code: "wallet-policy",
    label: "menu:wallet-policy",
    path: "/wallet-policy",
    permissionCode: PERMISSION.walletPolicy,
    icon: ControlOutlined,
  },
  group(
    {
      code: "parking",
      label: "menu:parking",
      permissionCode: PERMISSION.parking,
      icon: CarOutlined,
    },
    [
      {
        code: "parking-lot",
        label: "menu:parking-lot",
        path: "/parking",
        alias: ["/parking-lot"],
        icon: EnvironmentOutlined,
      },
      {
        code: "parking-session",
        label: "menu:parking-session",
        path: "/parking-session",
        icon: FieldTimeOutlined,
      },
    ],
  ),
  {
    code: "dormant-account",
    label: "menu:dormant-account",
    path: "/dormant-account",
    permissionCode: PERMISSION.dormant,
    icon: HourglassOutlined,
  },
  {
    code: "ucsi-id-mgmt",
    label: "menu:ucsi-id-mgmt",
    path: "/ucsi-id-mgmt",
    permissionCode: PERMISSION.ucsiIdMgmt,
    icon: IdcardOutlined,
  },
  group(
    {
      code: "announcement",
      label: "menu:announcement",
      permissionCode: PERMISSION.announcement,
      icon: NotificationOutlined,
    },
    [
      {
        code: "app-notification",
        label: "menu:app-notification",
        path: "/app-notification",
        icon: BellOutlined,
      },
      {
        code: "merchant-announcement",
        label: "menu:merchant-announcement",
        path: "/merchant-announcement",
        icon: SoundOutlined,
      },
    ],
  ),
  {
    code: "setting",
    label: "menu:setting",
    path: "/setting",
    permissionCode: null,
    icon: SettingOutlined,
  },
  {
    code: "global",
    label: "menu:global",
    path: "/global",
    permissionCode: PERMISSION.global,
    icon: GlobalOutlined,
  },
];

/** Whether `pathname` is `prefix` itself or lies below it (`/admin-mgmt/create`, not `/admin-mgmtx`). */
export function isUnderPath(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`);
}

/** Every menu entry, groups and their items, in table order. */
export function flattenMenu(entries: readonly MenuEntry[]): MenuEntry[] {
  return entries.flatMap((entry) => [entry, ...flattenMenu(entry.subMenu ?? [])]);
}

/** The entry a path belongs to, by its own path or one of its aliases (longest prefix wins). */
export function findMenuEntry(
  entries: readonly MenuEntry[],
  pathname: string,
): { entry: MenuEntry; group?: MenuEntry } | undefined {
  let best: { entry: MenuEntry; group?: MenuEntry; length: number } | undefined;
  const consider = (entry: MenuEntry, parent?: MenuEntry) => {
    for (const prefix of [entry.path, ...(entry.alias ?? [])]) {
      if (prefix && isUnderPath(pathname, prefix) && prefix.length > (best?.length ?? -1)) {
        best = { entry, group: parent, length: prefix.length };
      }
    }
    for (const item of entry.subMenu ?? []) consider(item, entry);
  };
  for (const entry of entries) consider(entry);
  return best && { entry: best.entry, group: best.group };
}

/**
 * The menu an administrator sees: the entries whose code they hold (`canAccess`; `null` = no
 * guard); a group appears when it is allowed and at least one of its items remains.
 */
export function visibleMenu(
  entries: readonly MenuEntry[],
  canAccess: (permissionCode: number | null) => boolean,
): MenuEntry[] {
  return entries.flatMap((entry): MenuEntry[] => {
    if (!canAccess(entry.permissionCode)) return [];
    if (!entry.subMenu) return [entry];
    const items = visibleMenu(entry.subMenu, canAccess);
    return items.length > 0 ? [{ ...entry, subMenu: items }] : [];
  });
}
