import { lazy } from "react";

import { resourceOf } from "../../app/kit/resource";
import { changeContact as changeContactModule } from "../../shared/modules/change-contact";

/** User > Change Contact: users' requests to change their e-mail or phone. */
export const changeContact = resourceOf(changeContactModule, {
  list: lazy(() => import("./list")),
});
