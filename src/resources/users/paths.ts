import type { BaseKey } from "@refinedev/core";

/**
 * The users' routes (the resource declaration in ./index.ts uses the same strings). The list is
 * User > User at /user-mgmt; a single user lives under /user-details, which the menu treats as
 * an alias of that entry.
 */
export const USER_PATHS = {
  list: "/user-mgmt",
  show: "/user-details/:id",
} as const;

export const userShowPath = (id: BaseKey) =>
  USER_PATHS.show.replace(":id", encodeURIComponent(String(id)));
