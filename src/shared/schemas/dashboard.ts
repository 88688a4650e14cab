import { z } from "zod";

const count = z.number().int().nonnegative();

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
});
export type DashboardSummary = z.output<typeof dashboardSummarySchema>;
