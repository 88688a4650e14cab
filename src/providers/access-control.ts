import type { AccessControlProvider, CanParams, CanReturnType } from "@refinedev/core";
import i18next from "i18next";

import type { AdminDto } from "./api-types";
import { getCurrentAdmin, loadCurrentAdmin } from "./current-admin";
import { holdsPermission, type PermissionHolder } from "../shared/permissions";

/**
 * Browser-side gating is convenience (docs/backoffice.md): it hides what the server would refuse
 * anyway. Each resource names its permission code in `meta.permissionCode`; none means open.
 */

/** Whether an administrator may use something that needs `code` (null/undefined: needs none). */
export function canAccess(
  admin: PermissionHolder | null | undefined,
  code: number | null | undefined,
): boolean {
  if (code === undefined || code === null) return true;
  return admin ? holdsPermission(admin, code) : false;
}

export interface AccessControlOptions {
  /** Finds a resource's code by name, for checks that name a resource without passing it. */
  permissionCodeOf?: (resourceName: string) => number | null | undefined;
  /** The administrator to decide for; defaults to the cached one, fetched once when absent. */
  loadAdmin?: () => Promise<AdminDto | null>;
}

async function cachedOrFetchedAdmin(): Promise<AdminDto | null> {
  const cached = getCurrentAdmin();
  if (cached) return cached;
  try {
    return await loadCurrentAdmin();
  } catch {
    // No session or no server: deny; the auth check and the error handler deal with the cause.
    return null;
  }
}

/** `undefined` when the resource declares no code; a number, null, or something malformed. */
function declaredCode(params: CanParams, options: AccessControlOptions): unknown {
  const meta = params.params?.resource?.meta as Record<string, unknown> | undefined;
  if (meta && "permissionCode" in meta) return meta.permissionCode;
  if (params.resource && options.permissionCodeOf) {
    return options.permissionCodeOf(params.resource);
  }
  return undefined;
}

function denied(): CanReturnType {
  return { can: false, reason: String(i18next.t("errors:accessDenied")) };
}

export function createAccessControlProvider(
  options: AccessControlOptions = {},
): AccessControlProvider {
  const loadAdmin = options.loadAdmin ?? cachedOrFetchedAdmin;
  return {
    can: async (params) => {
      const code = declaredCode(params, options);
      if (code === undefined || code === null) return { can: true };
      // A code that is not a number is a misdeclared resource: fail closed rather than open.
      if (typeof code !== "number") return denied();
      return canAccess(await loadAdmin(), code) ? { can: true } : denied();
    },
    options: { buttons: { enableAccessControl: true, hideIfUnauthorized: true } },
  };
}

export const accessControlProvider: AccessControlProvider = createAccessControlProvider();
