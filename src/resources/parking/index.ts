import { lazy } from "react";

import { resourceOf } from "../../app/kit/resource";
import { parkingLots } from "../../shared/modules/parking";

/**
 * UCSI Parking (39): the lots' list with their map above it (the generated detail, add and edit
 * pages otherwise); the sessions are drawn whole by the kit.
 */
export const parking = resourceOf(parkingLots, { list: lazy(() => import("./lots-page")) });
