import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

import { holdsPermission, PERMISSION } from "../../src/shared/permissions";
import { currentAdmin } from "../auth/access";
import { dashboardFigures } from "./dashboard-figures";
import { errorResponses } from "../../src/shared/schemas/common";
import { dashboardSummarySchema, type DashboardSummary } from "../../src/shared/schemas/dashboard";
import type { RouteDeps } from "../http/deps";

/** Headline figures; each block only for administrators who hold the module's code. */
export const dashboardRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.get(
    "/api/dashboard/summary",
    {
      config: { access: "session" },
      schema: {
        tags: ["dashboard"],
        summary: "Headline figures for the dashboard",
        response: { 200: dashboardSummarySchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const admin = currentAdmin(request);
      const money = {
        topUps: holdsPermission(admin, PERMISSION.topUp),
        payments: holdsPermission(admin, PERMISSION.settlement),
      };
      const { trend, ...counts } = await dashboardFigures(db, admin, money);
      const summary: DashboardSummary = { ...counts };
      if (trend) {
        summary.trend = trend;
        const { day, ...figures } = trend.at(-1)!;
        summary.today = { businessDay: day, ...figures };
      }
      return summary;
    },
  );
};
