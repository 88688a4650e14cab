import { lazy } from "react";

import { resourceOf } from "../../app/kit/resource";
import { userReports as userReportsModule } from "../../shared/modules/user-reports";

/** User Report (37): the generated list; the detail page adds assign, start and resolve. */
export const userReports = resourceOf(userReportsModule, { show: lazy(() => import("./show")) });
