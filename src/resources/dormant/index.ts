import { lazy } from "react";
import { PERMISSION } from "../../shared/permissions";
import type { ResourceModule } from "../types";

/** Dormant Account: users inactive for longer than the dormancy period (code 38). */
export const dormant: ResourceModule = {
  resource: {
    name: "dormant-accounts",
    list: "/dormant-account",
    meta: {
      collection: "users",
      listPath: "/api/users/dormant",
      listKey: "users",
      permissionCode: PERMISSION.dormant,
      menuCode: "dormant-account",
      label: "menu:dormant-account",
    },
  },
  pages: {
    list: lazy(() => import("./list")),
  },
};
