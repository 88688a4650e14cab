import { lazy } from "react";
import { PERMISSION } from "../../shared/permissions";
import type { ResourceModule } from "../types";
import { USER_APPROVAL_PATHS } from "./paths";

/** User > Approval: the users list, always filtered to pending users, with the decisions. */
export const userApproval: ResourceModule = {
  resource: {
    name: "user-approval",
    ...USER_APPROVAL_PATHS,
    meta: {
      collection: "users",
      listKey: "users",
      permissionCode: PERMISSION.user,
      menuCode: "user-approval",
      label: "menu:user-approval",
    },
  },
  pages: {
    list: lazy(() => import("./list")),
  },
};
