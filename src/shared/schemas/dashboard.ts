import { z } from "zod";

import { DASHBOARD_QUEUES, type DashboardQueueKey } from "../dashboard-queues";

const count = z.number().int().nonnegative();

const sen = z.number().int();

/** One business day's figures: each only for holders of its code (Top Up, Settlement). */
const dayFigures = {
  topUps: count.optional(),
  topUpSen: sen.optional(),
  payments: count.optional(),
  paymentSen: sen.optional(),
};

export const dashboardSummarySchema = z.object({
  administrators: z
    .object({ total: count, active: count, disabled: count, banned: count })
    .optional()
    .describe("Only for callers holding Admin (8)"),
  users: z
    .object({ total: count, pending: count, approved: count, rejected: count })
    .optional()
    .describe("Only for callers holding User (0)"),
  pending: z
    .object(
      Object.fromEntries(DASHBOARD_QUEUES.map((queue) => [queue.key, count.optional()])) as Record<
        DashboardQueueKey,
        z.ZodOptional<typeof count>
      >,
    )
    .optional()
    .describe(
      "Work waiting for staff (src/shared/dashboard-queues.ts), each queue only for holders of " +
        "its module's code: user approvals, change-contact submissions and rider verifications " +
        "(User, 0); business approvals and update requests (Business, 4). Absent when none is held",
    ),
  businesses: z
    .object({ approved: count, suspended: count })
    .optional()
    .describe(
      "Merchants by status (the pending ones are a queue of `pending`). Only for Business (4)",
    ),
  today: z
    .object({ businessDay: z.iso.date(), ...dayFigures })
    .optional()
    .describe(
      "Today's business day (BUSINESS_TIMEZONE): successful top-ups, count and sum in sen, for " +
        "holders of Top Up (33); payments (succeeded, refunded ones included, as the Merchant " +
        "Transaction Summary counts them) for holders of Settlement (35)",
    ),
  trend: z
    .array(z.object({ day: z.iso.date(), ...dayFigures }))
    .optional()
    .describe(
      "The last 14 business days, oldest first, today included: the same figures as `today`, " +
        "each under the same code",
    ),
});
export type DashboardSummary = z.output<typeof dashboardSummarySchema>;
