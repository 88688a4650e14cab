import { z } from "zod";

const count = z.number().int().nonnegative();

const sen = z.number().int();

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
    .object({ approvals: count, changeContact: count, riderVerifications: count })
    .optional()
    .describe(
      "Work waiting for staff: pending user approvals, change-contact submissions and rider " +
        "verifications. Only for callers holding User (0)",
    ),
  businesses: z
    .object({ pending: count, approved: count, suspended: count, updateRequests: count })
    .optional()
    .describe(
      "Merchants by status, the pending ones waiting for a decision, and the update requests " +
        "waiting for one. Only for Business (4)",
    ),
  today: z
    .object({
      businessDay: z.iso.date(),
      topUps: count,
      topUpSen: sen,
      payments: count,
      paymentSen: sen,
    })
    .optional()
    .describe(
      "Successful top-ups and payments of today's business day (BUSINESS_TIMEZONE): count and " +
        "sum in sen. Only for callers holding Top Up (33)",
    ),
});
export type DashboardSummary = z.output<typeof dashboardSummarySchema>;
