import { lazy } from "react";
import { PERMISSION } from "../../shared/permissions";
import type { ResourceModule } from "../types";
import { ADMIN_PATHS } from "./paths";

export const administrators: ResourceModule = {
  resource: {
    name: "administrators",
    ...ADMIN_PATHS,
    meta: {
      collection: "administrators",
      listKey: "administrators",
      permissionCode: PERMISSION.admin,
      menuCode: "admin",
      label: "menu:admin",
    },
  },
  pages: {
    list: lazy(() => import("./list")),
    create: lazy(() => import("./create")),
    show: lazy(() => import("./show")),
    edit: lazy(() => import("./edit")),
  },
};
