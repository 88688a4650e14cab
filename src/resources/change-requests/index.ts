import { lazy } from "react";

import { resourceOf } from "../../app/kit/resource";
import { changeRequests as changeRequestsModule } from "../../shared/modules/change-requests";

/**
 * Pending approvals (four eyes): the kit's list and detail page, with each request's module and
 * verb in that module's own words, and a switch to the signed-in administrator's own requests.
 */
export const changeRequests = resourceOf(changeRequestsModule, {
  list: lazy(() => import("./list")),
  show: lazy(() => import("./show")),
});
