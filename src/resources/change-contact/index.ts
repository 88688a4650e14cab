import { lazy } from "react";
import { PERMISSION } from "../../shared/permissions";
import type { ResourceModule } from "../types";

export const CHANGE_CONTACT_LIST_PATH = "/user-change-contact";

/** User > Change Contact: users' requests to change their e-mail or phone. */
export const changeContact: ResourceModule = {
  resource: {
    name: "change-contact-submissions",
    list: CHANGE_CONTACT_LIST_PATH,
    meta: {
      collection: "change-contact-submissions",
      // The server lists submissions at the collection itself (the aggregation contract there).
      listPath: "/api/change-contact-submissions",
      listKey: "changeContactSubmissions",
      permissionCode: PERMISSION.user,
      menuCode: "user-change-contact",
      label: "menu:user-change-contact",
    },
  },
  pages: {
    list: lazy(() => import("./list")),
  },
};
