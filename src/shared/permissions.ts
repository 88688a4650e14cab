/**
 * The 14 permission module groups of the back office (docs/backoffice.md). One source of truth:
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

/** The codes of `codes` that `holder` lacks, ascending, each once (none for a super administrator). */
export function codesLacking(holder: PermissionHolder, codes: Iterable<number>): number[] {
  return [...new Set(codes)].filter((code) => !holdsPermission(holder, code)).sort((a, b) => a - b);
}

/**
 * Whether `actor` may act on administrator `target` at all (edit, take out of service, send a
 * password reset link): on itself always (other rules apply there), on a super administrator only
 * as a super administrator, on anyone else only holding every code the target holds. The server
 * enforces it; the console hides what it would refuse.
 */
export function mayManageAdministrator(
  actor: PermissionHolder & { id: number },
  target: PermissionHolder & { id: number },
): boolean {
  if (actor.id === target.id) return true;
  if (target.isSuperAdmin && !actor.isSuperAdmin) return false;
  return codesLacking(actor, target.permissions).length === 0;
}
