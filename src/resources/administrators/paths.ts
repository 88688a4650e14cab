import type { BaseKey } from "@refinedev/core";

import { administrators } from "../../shared/modules/administrators";

/**
 * The administrators' routes (the resource declaration in ./index.ts uses the same strings).
 * The list lives under /admin-mgmt, single records under /manage-admin: the menu treats the
 * latter as an alias of Admin.
 */
// The declaration names all four (src/shared/modules/administrators.ts).
const { list, show, create, edit } = administrators.paths as Required<typeof administrators.paths>;
export const ADMIN_PATHS = { list, create, show: `${show}/:id`, edit } as const;

export const adminShowPath = (id: BaseKey) =>
  ADMIN_PATHS.show.replace(":id", encodeURIComponent(String(id)));
export const adminEditPath = (id: BaseKey) =>
  ADMIN_PATHS.edit.replace(":id", encodeURIComponent(String(id)));

export const CHECK_EMAIL_PATH = "/user-mgmt/check-email-available";
