import { lazy } from "react";

import { resourceOf } from "../../app/kit/resource";
import { businesses as businessesModule } from "../../shared/modules/businesses";

/**
 * Business (4): the generated list and edit form, and the detail page with the business's
 * documents beside its approval decision.
 */
export const businesses = resourceOf(businessesModule, {
  show: lazy(() => import("./show")),
});
