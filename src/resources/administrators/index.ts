import { lazy } from "react";

import { resourceOf } from "../../app/kit/resource";
import { administrators as administratorsModule } from "../../shared/modules/administrators";

/** Admin: the generated list; create, detail and edit are screens of their own (permissions). */
export const administrators = resourceOf(administratorsModule, {
  list: lazy(() => import("./list")),
  create: lazy(() => import("./create")),
  show: lazy(() => import("./show")),
  edit: lazy(() => import("./edit")),
});
