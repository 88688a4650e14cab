import { and, count, eq, gte, inArray, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

import { holdsPermission, PERMISSION } from "../../src/shared/permissions";
import { currentAdmin } from "../auth/access";
import { businessDayOf, businessDayStartOf } from "../business-day";
import {
  administrators,
  businesses,
  businessUpdateRequests,
  changeContactSubmissions,
  riders,
  users,
  walletTransactions,
} from "../db/schema";
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
        const [row] = await db
          .select({
            total: sql<number>`count(*)::int`,
            pending: sql<number>`(count(*) filter (where ${users.approvalStatus} = 'pending'))::int`,
            approved: sql<number>`(count(*) filter (where ${users.approvalStatus} = 'approved'))::int`,
            rejected: sql<number>`(count(*) filter (where ${users.approvalStatus} = 'rejected'))::int`,
          })
          .from(users);
        summary.users = row ?? { total: 0, pending: 0, approved: 0, rejected: 0 };
        const [contacts] = await db
          .select({ pending: count() })
          .from(changeContactSubmissions)
          .where(eq(changeContactSubmissions.status, "pending"));
        const [riderRows] = await db
          .select({ pending: count() })
          .from(riders)
          .where(eq(riders.verificationStatus, "pending"));
        summary.pending = {
          approvals: summary.users.pending,
          changeContact: contacts?.pending ?? 0,
          riderVerifications: riderRows?.pending ?? 0,
        };
      }
      if (holdsPermission(admin, PERMISSION.business)) {
        const { status } = businesses;
        const [row] = await db
          .select({
            pending: sql<number>`(count(*) filter (where ${status} = 'pending'))::int`,
            approved: sql<number>`(count(*) filter (where ${status} = 'approved'))::int`,
            suspended: sql<number>`(count(*) filter (where ${status} = 'suspended'))::int`,
          })
          .from(businesses);
        const [requests] = await db
          .select({ pending: count() })
          .from(businessUpdateRequests)
          .where(eq(businessUpdateRequests.status, "pending"));
        summary.businesses = {
          ...(row ?? { pending: 0, approved: 0, suspended: 0 }),
          updateRequests: requests?.pending ?? 0,
        };
      }
      if (holdsPermission(admin, PERMISSION.topUp)) {
        const now = new Date();
        const { type, status, amountSen, createdAt } = walletTransactions;
        const of = (kind: "top_up" | "payment") => sql`${type} = ${kind} and ${status} = 'success'`;
        const [row] = await db
          .select({
            topUps: sql<number>`(count(*) filter (where ${of("top_up")}))::int`,
            topUpSen: sql<string>`coalesce(sum(${amountSen}) filter (where ${of("top_up")}), 0)`,
            payments: sql<number>`(count(*) filter (where ${of("payment")}))::int`,
            paymentSen: sql<string>`coalesce(-sum(${amountSen}) filter (where ${of("payment")}), 0)`,
          })
          .from(walletTransactions)
          .where(
            and(inArray(type, ["top_up", "payment"]), gte(createdAt, businessDayStartOf(now))),
          );
        summary.today = {
          businessDay: businessDayOf(now),
          topUps: row?.topUps ?? 0,
          topUpSen: Number(row?.topUpSen ?? 0),
          payments: row?.payments ?? 0,
          paymentSen: Number(row?.paymentSen ?? 0),
        };
      }
      return summary;
    },
  );
};
