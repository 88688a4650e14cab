import { lazy } from "react";

import { resourceOf } from "../../app/kit/resource";
import { businessApproval as businessApprovalModule } from "../../shared/modules/businesses";

/** Business > Approval: the generated queue, a decision's dialog listing the documents. */
export const businessApproval = resourceOf(businessApprovalModule, {
  list: lazy(() => import("./list")),
});
