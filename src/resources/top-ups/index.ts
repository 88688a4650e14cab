import { lazy } from "react";

import { resourceOf } from "../../app/kit/resource";
import { topUps as topUpsModule } from "../../shared/modules/top-ups";

/**
 * Top Up Transaction (33): the generated list; the generated detail with its receipts to print;
 * the counter top-up shows the policy.
 */
export const topUps = resourceOf(topUpsModule, {
  create: lazy(() => import("./create")),
  show: lazy(() => import("./show")),
});
