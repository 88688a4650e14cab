import { resourceModules } from "../resources";
import { PERMISSION } from "../shared/permissions";

/** Menu entries whose pages the shell itself provides rather than a resource. */
export const SHELL_MENU_CODES = ["dashboard", "statistic", "setting", "global"] as const;

/** The permission codes of the shell's own pages that need one (Statistic, Global). */
const SHELL_PERMISSION_CODES: readonly number[] = [PERMISSION.statistic, PERMISSION.global];

/**
 * The menu entries that have a page in this build: the shell's own pages and every declared
 * resource's menu entry. Entries not listed here stay out of the menu until their issue lands.
 */
export const IMPLEMENTED_MENU_CODES: ReadonlySet<string> = new Set([
  ...SHELL_MENU_CODES,
  ...resourceModules.map((module) => module.resource.meta.menuCode),
]);

/** The permission codes of the modules in this build: the ones worth granting. */
export const IMPLEMENTED_PERMISSION_CODES: ReadonlySet<number> = new Set([
  ...SHELL_PERMISSION_CODES,
  ...resourceModules.flatMap(({ resource }) =>
    resource.meta.permissionCode === null ? [] : [resource.meta.permissionCode],
  ),
]);
