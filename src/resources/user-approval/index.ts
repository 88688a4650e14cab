import { lazy } from "react";

import { resourceOf } from "../../app/kit/resource";
import { userApproval as userApprovalModule } from "../../shared/modules/user-approval";

/** User > Approval: the users list, always filtered to pending users, with the decisions. */
export const userApproval = resourceOf(userApprovalModule, { list: lazy(() => import("./list")) });
