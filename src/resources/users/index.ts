import { lazy } from "react";

import { resourceOf } from "../../app/kit/resource";
import { users as usersModule } from "../../shared/modules/users";

/** User > User: the generated list, and the detail page no generator should draw. */
export const users = resourceOf(usersModule, {
  list: lazy(() => import("./list")),
  show: lazy(() => import("./show")),
});
