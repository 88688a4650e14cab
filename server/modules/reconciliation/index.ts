/**
 * Reconciliation (docs/reconciliation.md): one row per business day, its checks and, for a red
 * day, the investigation; the checks are server/services/reconciliation.ts, a run on demand is
 * ./endpoints.ts, the close-of-day job server/jobs/reconcile.ts.
 */
import { eq, sql } from "drizzle-orm";

import type { RemarkBody } from "../../../src/shared/kit/module";
import { reconciliation } from "../../../src/shared/modules/reconciliation";
import type { Tx } from "../../db";
import { reconciliationDays } from "../../db/schema";
import { adminNameOf, bindModule, type ActionContext } from "../../kit/bind";
import { reconciliationEndpoints } from "./endpoints";

/** A day's state as the list shows it: a red day marked investigated is `investigated`. */
const state = sql<string>`(case when ${reconciliationDays.status} = 'failed'
  and ${reconciliationDays.investigatedAt} is not null then 'investigated'
  else ${reconciliationDays.status} end)`;

async function investigate(tx: Tx, { actor, id, body }: ActionContext<RemarkBody>) {
  await tx
    .update(reconciliationDays)
    .set({ investigatedBy: actor.id, investigatedAt: new Date(), investigationRemark: body.remark })
    .where(eq(reconciliationDays.id, id));
}

export const reconciliationModule = bindModule(reconciliation, {
  table: reconciliationDays,
  columns: {
    status: state,
    ranByName: adminNameOf(reconciliationDays.ranBy),
    investigatedByName: adminNameOf(reconciliationDays.investigatedBy),
  },
  actions: { investigate },
  endpoints: reconciliationEndpoints,
});
