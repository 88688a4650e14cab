import type { BaseKey } from "@refinedev/core";

/**
 * The administrators' routes (the resource declaration in ./index.ts uses the same strings).
 * The list lives under /admin-mgmt, single records under /manage-admin: the menu treats the
 * latter as an alias of Admin.
 */
export const ADMIN_PATHS = {
  list: "/admin-mgmt",
  create: "/admin-mgmt/create",
  show: "/manage-admin/:id",
  edit: "/manage-admin/:id/edit",
} as const;

export const adminShowPath = (id: BaseKey) =>
  ADMIN_PATHS.show.replace(":id", encodeURIComponent(String(id)));
export const adminEditPath = (id: BaseKey) =>
  ADMIN_PATHS.edit.replace(":id", encodeURIComponent(String(id)));

export const CHECK_EMAIL_PATH = "/user-mgmt/check-email-available";
export const CHANGE_PERMISSION_PATH = "/user-mgmt/change-admin-permission";
