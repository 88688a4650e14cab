import { lazy } from "react";

import { resourceOf } from "../../app/kit/resource";
import { dormantAccounts } from "../../shared/modules/dormant";

/** Dormant Account: users inactive for longer than the dormancy period (code 38). */
export const dormant = resourceOf(dormantAccounts, { list: lazy(() => import("./list")) });
