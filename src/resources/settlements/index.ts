import { lazy } from "react";

import { resourceOf } from "../../app/kit/resource";
import { settlements as settlementsModule } from "../../shared/modules/settlements";

/**
 * Settlement Record (35): the generated list with the run, and the generated detail page with
 * its invoice (the shell page `?id=invoice&settlement={id}`) and the invoice's PDF.
 */
export const settlements = resourceOf(settlementsModule, {
  list: lazy(() => import("./list")),
  show: lazy(() => import("./show")),
});
