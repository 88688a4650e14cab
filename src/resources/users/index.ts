import { lazy } from "react";
import { PERMISSION } from "../../shared/permissions";
import type { ResourceModule } from "../types";
import { USER_PATHS } from "./paths";

export const users: ResourceModule = {
  resource: {
    name: "users",
    ...USER_PATHS,
    meta: {
      collection: "users",
      listKey: "users",
      permissionCode: PERMISSION.user,
      menuCode: "user-mgmt",
      label: "menu:user-mgmt",
    },
  },
  pages: {
    list: lazy(() => import("./list")),
    show: lazy(() => import("./show")),
  },
};
