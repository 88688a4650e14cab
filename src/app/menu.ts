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
  DiffOutlined,
  EnvironmentOutlined,
  FieldTimeOutlined,
  FileDoneOutlined,
  FileSyncOutlined,
  FileTextOutlined,
  FlagOutlined,
  FundOutlined,
  GlobalOutlined,
  HistoryOutlined,
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
import type { ModuleDecl } from "../shared/kit/module";
import { collectModules } from "../shared/kit/registry";
import { PERMISSION } from "../shared/permissions";

/**
 * One entry of the side navigation as the shell reads it (docs/backoffice.md describes it).
 * `label` is a translation key (a shell page's or a group's `menu:<code>`, a module's
 * `menu:modules.<ns>`, from its own namespace file); `alias` lists other path prefixes (detail and edit pages) that belong to the entry; `permissionCode: null` means every administrator may see it.
 * A module's entry is built from its declaration (menuOf); `module` is then its name.
 */
export interface MenuEntry {
  code: string;
  label: string;
  path?: string;
  permissionCode: number | null;
  alias?: string[];
  subMenu?: MenuEntry[];
  icon: ComponentType;
  module?: string;
}

/** A page of the shell's own (not a module): everything about it is written here. */
interface PageRow {
  kind: "page";
  code: string;
  path: string;
  permissionCode: number | null;
  icon: ComponentType;
}

/**
 * A declared module's entry, named by its declaration's `menu` code: its path, permission code
 * and detail and edit prefixes come from the declaration; `legacy` are older path prefixes the
 * declaration does not hold that still belong to it.
 */
interface ModuleRow {
  kind: "module";
  code: string;
  icon: ComponentType;
  legacy?: string[];
}

/** A group of modules: its items must hold its permission code, so it never shows one it forbids. */
interface GroupRow {
  kind: "group";
  code: string;
  permissionCode: number | null;
  icon: ComponentType;
  items: ModuleRow[];
}

export type MenuRow = PageRow | ModuleRow | GroupRow;

const page = (
  code: string,
  path: string,
  permissionCode: number | null,
  icon: ComponentType,
): PageRow => ({ kind: "page", code, path, permissionCode, icon });

const declared = (code: string, icon: ComponentType, legacy?: string[]): ModuleRow => ({
  kind: "module",
  code,
  icon,
  ...(legacy ? { legacy } : {}),
});

const group = (
  code: string,
  permissionCode: number | null,
  icon: ComponentType,
  items: ModuleRow[],
): GroupRow => ({ kind: "group", code, permissionCode, icon, items });

/**
 * The side navigation's layout, its only copy: the order, the groups, the icons and the shell's
 * own pages. A module appears by its declaration's `menu` code; the rest of its entry is read
 * from the declaration (menuOf).
 */
export const MENU_LAYOUT: readonly MenuRow[] = [
  page("dashboard", "/dashboard", null, DashboardOutlined),
  // Pending approvals (four eyes): every administrator; the server shows each their own rows.
  declared("change-requests", DiffOutlined),
  page("statistic", "/statistic", PERMISSION.statistic, BarChartOutlined),
  declared("admin", SafetyCertificateOutlined),
  declared("audit-log", HistoryOutlined),
  group("user", PERMISSION.user, UserOutlined, [
    declared("user-approval", AuditOutlined),
    declared("user-mgmt", TeamOutlined),
    declared("user-change-contact", ContactsOutlined),
  ]),
  group("business", PERMISSION.business, ShopOutlined, [
    declared("business-approval", FileDoneOutlined),
    declared("business-mgmt", AppstoreOutlined),
    declared("business-update", FileSyncOutlined),
  ]),
  group("settlement", PERMISSION.settlement, AccountBookOutlined, [
    declared("merchant-transaction-summary", FundOutlined),
    declared("settlement-record", ReconciliationOutlined),
    declared("reconciliation", DiffOutlined),
  ]),
  declared("top-up-transaction", WalletOutlined),
  // The help centre's editor once lived under /manage-content.
  declared("content-mgmt", FileTextOutlined, ["/manage-content"]),
  declared("user-report", FlagOutlined),
  declared("wallet-policy", ControlOutlined),
  group("parking", PERMISSION.parking, CarOutlined, [
    declared("parking-lot", EnvironmentOutlined),
    declared("parking-session", FieldTimeOutlined),
  ]),
  declared("dormant-account", HourglassOutlined),
  declared("ucsi-id-mgmt", IdcardOutlined),
  group("announcement", PERMISSION.announcement, NotificationOutlined, [
    declared("app-notification", BellOutlined),
    declared("merchant-announcement", SoundOutlined),
  ]),
  page("setting", "/setting", null, SettingOutlined),
  page("global", "/global", PERMISSION.global, GlobalOutlined),
];

/**
 * A module's menu label: the `menu` text of its own namespace file, which the build gathers into
 * the menu's namespace as `modules.<ns>` (build/menu-texts.ts), so the first screen has it.
 */
export const moduleMenuLabel = (decl: Pick<ModuleDecl, "i18n">) => `menu:modules.${decl.i18n}`;

/** The fixed part of a route (`/manage-admin/:id/edit` → `/manage-admin`). */
function prefixOf(path: string): string {
  const segments = path.split("/");
  const dynamic = segments.findIndex((segment) => segment.startsWith(":"));
  return dynamic === -1 ? path : segments.slice(0, dynamic).join("/");
}

/** The prefixes of a module's other pages that its list path does not already cover. */
function aliasesOf(decl: ModuleDecl, legacy: readonly string[] = []): string[] {
  const { list, show, create, edit } = decl.paths;
  const prefixes = [
    ...new Set([show, create, edit].flatMap((path) => (path ? [prefixOf(path)] : []))),
  ];
  // A prefix below the list path or below another prefix adds nothing.
  const covered = (prefix: string) =>
    isUnderPath(prefix, list) ||
    prefixes.some((other) => other !== prefix && isUnderPath(prefix, other));
  return [...new Set([...prefixes.filter((prefix) => !covered(prefix)), ...legacy])];
}

/**
 * The side navigation from its layout and the declared modules: each module's entry takes its
 * path, permission code, label and aliases from its declaration. Throws, naming it, when an entry
 * names no declared module, a declared module has no entry, two modules claim one entry, or a
 * group holds a module guarded by another code.
 */
export function menuOf(layout: readonly MenuRow[], modules: readonly ModuleDecl[]): MenuEntry[] {
  const byCode = new Map<string, ModuleDecl>();
  for (const decl of modules) {
    const other = byCode.get(decl.menu);
    if (other) {
      throw new Error(
        `Modules "${other.name}" and "${decl.name}" both name menu entry "${decl.menu}"`,
      );
    }
    byCode.set(decl.menu, decl);
  }
  const placed = new Set<string>();
  const codes = new Set<string>();
  const claim = (code: string) => {
    if (codes.has(code)) throw new Error(`Menu entry "${code}" appears twice`);
    codes.add(code);
  };

  const moduleEntry = (row: ModuleRow, parent?: GroupRow): MenuEntry => {
    claim(row.code);
    const decl = byCode.get(row.code);
    if (!decl) {
      throw new Error(`Menu entry "${row.code}" names no declared module (src/shared/modules)`);
    }
    if (parent && decl.permission !== parent.permissionCode) {
      throw new Error(
        `Module "${decl.name}" has permission ${String(decl.permission)}, but its menu ` +
          `group "${parent.code}" has ${String(parent.permissionCode)}`,
      );
    }
    placed.add(decl.name);
    const alias = aliasesOf(decl, row.legacy);
    return {
      code: row.code,
      // A module's words are its own: its entry is named by its namespace's `menu` key.
      label: moduleMenuLabel(decl),
      path: decl.paths.list,
      permissionCode: decl.permission,
      ...(alias.length > 0 ? { alias } : {}),
      icon: row.icon,
      module: decl.name,
    };
  };

  const menu = layout.map((row): MenuEntry => {
    switch (row.kind) {
      case "page":
        claim(row.code);
        return {
          code: row.code,
          label: `menu:${row.code}`,
          path: row.path,
          permissionCode: row.permissionCode,
          icon: row.icon,
        };
      case "module":
        return moduleEntry(row);
      case "group":
        claim(row.code);
        return {
          code: row.code,
          label: `menu:${row.code}`,
          permissionCode: row.permissionCode,
          icon: row.icon,
          subMenu: row.items.map((item) => moduleEntry(item, row)),
        };
    }
  });

  // A detail page only (ModuleInput.detailOnly) has no entry: its page is reached by links.
  const missing = modules.filter((decl) => !decl.detailOnly && !placed.has(decl.name));
  if (missing.length > 0) {
    throw new Error(
      missing
        .map((m) => `Module "${m.name}" (menu entry "${m.menu}") appears in no menu group`)
        .join("; "),
    );
  }
  return menu;
}

/** The modules in the order the menu shows them. */
export function inMenuOrder(
  menu: readonly MenuEntry[],
  modules: readonly ModuleDecl[],
): ModuleDecl[] {
  const order = flattenMenu(menu).flatMap((entry) => (entry.module ? [entry.module] : []));
  // Modules without an entry (detail pages only) come last.
  const rank = (decl: ModuleDecl) => {
    const index = order.indexOf(decl.name);
    return index === -1 ? order.length : index;
  };
  return [...modules].sort((a, b) => rank(a) - rank(b));
}

/**
 * The console's registry from the exports of every declaration file (src/shared/modules/*.ts):
 * the declared modules, in menu order, and the menu built from them. The console hands it the
 * files Vite finds (src/app/registry.ts); the browser tests, the files they read from the folder.
 */
export function registryOf(files: Iterable<Record<string, unknown>>): {
  MODULES: readonly ModuleDecl[];
  MENU: readonly MenuEntry[];
} {
  const modules = collectModules(files);
  const MENU = menuOf(MENU_LAYOUT, modules);
  return { MODULES: inMenuOrder(MENU, modules), MENU };
}

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
