import {
  reconciliation,
  reconciliationRunBody,
  type ReconciliationDayDto,
} from "../../../src/shared/modules/reconciliation";
import { errorResponses } from "../../../src/shared/schemas/common";
import { currentAdmin } from "../../auth/access";
import type { ModuleEndpoints } from "../../kit/bind";
import { assertReconcilable, reconcileDay } from "../../services/reconciliation";

/**
 * `POST /api/reconciliation/run`: Finance (35) reconciles a business day again; the day's row is
 * replaced and the run audited (`reconciliation.run`). Answers the day's record.
 */
export const reconciliationEndpoints: ModuleEndpoints = async (app, { db, bound }) => {
  app.post(
    "/api/reconciliation/run",
    {
      config: { thing: "Reconciliation Run" },
      schema: {
        tags: ["reconciliation"],
        summary: "Reconcile a business day again",
        description:
          "Runs the day's five checks (docs/reconciliation.md) and replaces its result; a red " +
          "day's investigation is kept only when the checks come out exactly as before. 400 " +
          "RECONCILIATION_DAY_NOT_OVER for today's business day or later (BUSINESS_TIMEZONE), " +
          "400 RECONCILIATION_BEFORE_LEDGER before the ledger's first day (`data.firstDay`).",
        body: reconciliationRunBody,
        response: { 200: reconciliation.item, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { day } = request.body;
      await assertReconcilable(db, day);
      const { id } = await reconcileDay(db, day, { adminId: currentAdmin(request).id });
      return (await bound.read(db, id)) as ReconciliationDayDto;
    },
  );
};
