import { stringifyTableParams } from "@refinedev/core";
import { resourceModules } from "../../resources";

/**
 * `GET /api/dashboard/summary`: a section is present only when the caller holds its code
 * (administrators: 8, users: 0).
 */
export interface DashboardSummary {
  administrators?: { total: number; active: number; disabled: number; banned: number };
  users?: { total: number; pending: number; approved: number; rejected: number };
}

export type SectionKey = keyof DashboardSummary;

export interface DashboardSection {
  key: SectionKey;
  figures: readonly string[];
  /** Where a figure leads: its list, filtered to that status; none while the list is missing. */
  linkFor: (figure: string) => string | undefined;
}

/** The list of `resourceName` filtered to `field = value` (or unfiltered for the total). */
function listLink(resourceName: string, field: string, figure: string): string | undefined {
  const list = resourceModules.find((module) => module.resource.name === resourceName)?.resource
    .list;
  if (!list) return undefined;
  if (figure === "total") return list;
  // The same query string the list's own table writes, so the filter shows as applied.
  const query = stringifyTableParams({
    filters: [{ field, operator: "eq", value: figure }],
    sorters: [],
    pagination: { currentPage: 1, pageSize: 10 },
  });
  return `${list}?${query}`;
}

export const DASHBOARD_SECTIONS: readonly DashboardSection[] = [
  {
    key: "administrators",
    figures: ["total", "active", "disabled", "banned"],
    linkFor: (figure) => listLink("administrators", "status", figure),
  },
  {
    key: "users",
    figures: ["total", "pending", "approved", "rejected"],
    linkFor: (figure) => listLink("users", "approvalStatus", figure),
  },
];

/** One figure of a section, or undefined when the server did not send it. */
export function figureOf(
  summary: DashboardSummary | undefined,
  section: SectionKey,
  figure: string,
): number | undefined {
  const values = summary?.[section] as Record<string, unknown> | undefined;
  const value = values?.[figure];
  return typeof value === "number" ? value : undefined;
}
