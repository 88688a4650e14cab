import { z } from "zod";

import { ADMIN_LANGUAGES } from "../../../src/shared/domain";
import { settlementRunBody, settlementRunResult } from "../../../src/shared/modules/settlements";
import { errorResponses, idParamsSchema } from "../../../src/shared/schemas/common";
import { currentAdmin } from "../../auth/access";
import { documentLanguage } from "../../documents/words";
import type { ModuleEndpoints } from "../../kit/bind";
import { contentDisposition } from "../../uploads/http";
import { runSettlements, settlementInvoice } from "./rules";

/** The languages an invoice is written in: the console's. */
const invoiceQuery = z.strictObject({ lang: z.enum(ADMIN_LANGUAGES).optional() });

/**
 * `POST /api/settlements/run` and `GET /api/settlements/{id}/invoice.pdf`, under Settlement (35)
 * like the module's own routes.
 */
export const settlementEndpoints: ModuleEndpoints = async (app, { db, config, bound }) => {
  app.post(
    "/api/settlements/run",
    {
      config: { thing: "Settlement Run" },
      schema: {
        tags: ["settlements"],
        summary: "Settle every approved business up to the end of a past business day",
        description:
          "Creates one pending settlement per approved business for its unsettled successful " +
          "payments and refunds made before the end of `periodEnd` (BUSINESS_TIMEZONE). A " +
          "payment is settled at most once (a database constraint): a second run creates " +
          "nothing new. 400 PERIOD_NOT_ENDED unless `periodEnd` is before today.",
        body: settlementRunBody,
        response: { 200: settlementRunResult, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) =>
      db.transaction((tx) =>
        runSettlements(tx, {
          periodEnd: request.body.periodEnd,
          adminId: currentAdmin(request).id,
        }),
      ),
  );
  app.get(
    "/api/settlements/:id/invoice.pdf",
    {
      config: { thing: "Settlement Invoice" },
      schema: {
        tags: ["settlements"],
        summary: "One settlement's invoice as an A4 PDF",
        description:
          "In `lang`, else the administrator's language. The same figures as the console's " +
          "invoice page (`?id=invoice&settlement={id}`).",
        params: idParamsSchema,
        querystring: invoiceQuery,
        response: {
          200: z.any().describe("The invoice, as application/pdf"),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const { settlement, pdf } = await settlementInvoice(db, bound, request.params.id, {
        language: documentLanguage(request, request.query.lang),
        font: config.invoiceFont,
      });
      return reply
        .type("application/pdf")
        .header("content-disposition", contentDisposition(`${settlement.invoiceNumber}.pdf`))
        .header("cache-control", "private, no-store")
        .send(pdf);
    },
  );
};
