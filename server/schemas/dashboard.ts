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
});
export type DashboardSummary = z.output<typeof dashboardSummarySchema>;
