import { lazy } from "react";

import { resourceOf } from "../../app/kit/resource";
import { ucsiIds as ucsiIdsModule } from "../../shared/modules/ucsi-ids";

/** UCSI ID Management (28): the generated list with the CSV import; the rest generated. */
export const ucsiIds = resourceOf(ucsiIdsModule, { list: lazy(() => import("./list")) });
