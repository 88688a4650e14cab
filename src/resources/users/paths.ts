import type { BaseKey } from "@refinedev/core";

import { users } from "../../shared/modules/users";

/**
 * The users' routes, from their declaration (src/shared/modules/users.ts), as the resource in
 * ./index.ts declares them. The list is User > User at /user-mgmt; a single user lives under
 * /user-details, which the menu treats as an alias of that entry.
 */
// The declaration names both (a list and a detail page).
const { list, show } = users.paths as Required<typeof users.paths>;
export const USER_PATHS = { list, show: `${show}/:id` } as const;

export const userShowPath = (id: BaseKey) =>
  USER_PATHS.show.replace(":id", encodeURIComponent(String(id)));
