/**
 * The 14 permission module groups of the back office (backoffice.md). One source of truth:
 * the server's route guards, the access-control provider, the menu and the permission editor
 * all read this table.
 */
export const PERMISSION_MODULES = [
  { key: "user", code: 0 },
  { key: "business", code: 4 },
  { key: "admin", code: 8 },
  { key: "contentMgmt", code: 12 },
  { key: "announcement", code: 16 },
  { key: "global", code: 20 },
  { key: "walletPolicy", code: 24 },
  { key: "ucsiIdMgmt", code: 28 },
  { key: "statistic", code: 32 },
  { key: "topUp", code: 33 },
  { key: "settlement", code: 35 },
  { key: "report", code: 37 },
  { key: "dormant", code: 38 },
  { key: "parking", code: 39 },
] as const;

export type PermissionModuleKey = (typeof PERMISSION_MODULES)[number]["key"];
export type PermissionCode = (typeof PERMISSION_MODULES)[number]["code"];

export const PERMISSION_CODES: readonly PermissionCode[] = PERMISSION_MODULES.map((m) => m.code);

/** Named codes, so call sites read `PERMISSION.admin` rather than a bare 8. */
export const PERMISSION = Object.fromEntries(PERMISSION_MODULES.map((m) => [m.key, m.code])) as {
  [M in (typeof PERMISSION_MODULES)[number] as M["key"]]: M["code"];
};

export function isPermissionCode(value: unknown): value is PermissionCode {
  return typeof value === "number" && (PERMISSION_CODES as readonly number[]).includes(value);
}

export interface PermissionHolder {
  permissions: readonly number[];
  isSuperAdmin: boolean;
}

/** `null` means the thing needs no permission (Dashboard, Setting). */
export function holdsPermission(holder: PermissionHolder, code: number | null): boolean {
  if (code === null) return true;
  return holder.isSuperAdmin || holder.permissions.includes(code);
}
