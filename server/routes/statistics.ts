import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

import { PERMISSION } from "../../src/shared/permissions";
import { errorResponses } from "../../src/shared/schemas/common";
import { statisticsQuerySchema, statisticsSchema } from "../../src/shared/schemas/statistics";
import { statisticsOf } from "../services/statistics";
import type { RouteDeps } from "../http/deps";

/** Statistic (32): `GET /api/statistics?from=&to=&granularity=day|week|month`. */
export const statisticsRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.get(
    "/api/statistics",
    {
      config: { access: { permission: PERMISSION.statistic, thing: "Statistics" } },
      schema: {
        tags: ["statistics"],
        summary: "The campus's figures over a range of business days, against the range before",
        description:
          "New users by role, active users, top-ups by channel, payments, refunds, settlements " +
          "paid and the top merchants by gross, in buckets of a day, a week (from Monday) or a " +
          "month, over business days (BUSINESS_TIMEZONE). Each total comes with the previous " +
          "range of the same length. Errors: 400 VALIDATION_ERROR (a date that is not one, an " +
          "unknown granularity), RANGE_REVERSED (to before from), RANGE_TOO_LONG (3 years or more).",
        querystring: statisticsQuerySchema,
        response: { 200: statisticsSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => statisticsOf(db, request.query),
  );
};
