import { lazy } from "react";

import { resourceOf } from "../../app/kit/resource";
import { walletPolicies } from "../../shared/modules/wallet-policies";

/** Wallet Policy (24): the policy in force over its history, and a change reviewed before saving. */
export const walletPolicy = resourceOf(walletPolicies, {
  list: lazy(() => import("./page")),
  create: lazy(() => import("./change")),
});
