import { sql, type SQL } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

import { holdsPermission, PERMISSION } from "../../src/shared/permissions";
import { currentAdmin } from "../auth/access";
import { DASHBOARD_QUEUES } from "../../src/shared/dashboard-queues";
import { APPROVAL_STATUSES } from "../../src/shared/domain";
import { administrators, businesses, userApprovalCounts } from "../db/schema";
import { moneyTrend, queueCounts } from "./dashboard-figures";
import { errorResponses } from "../../src/shared/schemas/common";
import { dashboardSummarySchema, type DashboardSummary } from "../../src/shared/schemas/dashboard";
import type { RouteDeps } from "./types";

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
      const summary: DashboardSummary = {};
      if (holdsPermission(admin, PERMISSION.admin)) {
        const [row] = await db
          .select({
            total: sql<number>`count(*)::int`,
            active: sql<number>`(count(*) filter (where ${administrators.status} = 'active'))::int`,
            disabled: sql<number>`(count(*) filter (where ${administrators.status} = 'disabled'))::int`,
            banned: sql<number>`(count(*) filter (where ${administrators.status} = 'banned'))::int`,
          })
          .from(administrators);
        summary.administrators = row ?? { total: 0, active: 0, disabled: 0, banned: 0 };
      }
      if (holdsPermission(admin, PERMISSION.user)) {
        // Kept by triggers on users (migration 0020): three rows, not a count of every user.
        const [row] = await db
          .select({
            total: sql<number>`coalesce(sum(${userApprovalCounts.n}), 0)::int`,
            ...(Object.fromEntries(
              APPROVAL_STATUSES.map((status) => [
                status,
                sql<number>`coalesce(sum(${userApprovalCounts.n}) filter (where ${userApprovalCounts.approvalStatus} = ${status}), 0)::int`,
              ]),
            ) as Record<(typeof APPROVAL_STATUSES)[number], SQL<number>>),
          })
          .from(userApprovalCounts);
        summary.users = row ?? { total: 0, pending: 0, approved: 0, rejected: 0 };
      }
      const queues = DASHBOARD_QUEUES.filter((queue) => holdsPermission(admin, queue.permission));
      if (queues.length > 0) summary.pending = await queueCounts(db, queues);
      if (holdsPermission(admin, PERMISSION.business)) {
        const { status } = businesses;
        const [row] = await db
          .select({
            approved: sql<number>`(count(*) filter (where ${status} = 'approved'))::int`,
            suspended: sql<number>`(count(*) filter (where ${status} = 'suspended'))::int`,
          })
          .from(businesses);
        summary.businesses = row ?? { approved: 0, suspended: 0 };
      }
      const money = {
        topUps: holdsPermission(admin, PERMISSION.topUp),
        payments: holdsPermission(admin, PERMISSION.settlement),
      };
      if (money.topUps || money.payments) {
        const trend = await moneyTrend(db, money);
        summary.trend = trend;
        const { day, ...figures } = trend.at(-1)!;
        summary.today = { businessDay: day, ...figures };
      }
      return summary;
    },
  );
};
