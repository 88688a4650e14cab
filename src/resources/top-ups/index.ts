import { lazy } from "react";

import { resourceOf } from "../../app/kit/resource";
import { topUps as topUpsModule } from "../../shared/modules/top-ups";

/** Top Up Transaction (33): generated list and detail; the counter top-up shows the policy. */
export const topUps = resourceOf(topUpsModule, { create: lazy(() => import("./create")) });
