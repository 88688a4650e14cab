import { lazy } from "react";

import { resourceOf } from "../../app/kit/resource";
import { reconciliation as reconciliationModule } from "../../shared/modules/reconciliation";

/**
 * Settlement > Reconciliation (35): the kit's list of reconciled days, and a detail page of
 * the kit's with each check, its figures and the rows that differ, and "Run again".
 */
export const reconciliation = resourceOf(reconciliationModule, {
  list: lazy(() => import("./list")),
  show: lazy(() => import("./show")),
});
