import { stringifyTableParams } from "@refinedev/core";
import { DASHBOARD_QUEUES } from "../../shared/dashboard-queues";
import { MODULES } from "../registry";
import type { DashboardSummary } from "../../shared/schemas/dashboard";

/**
 * `GET /api/dashboard/summary` (src/shared/schemas/dashboard.ts): a section is present only when
 * the caller holds its code (administrators: 8, users and pending: 0).
 */
export type { DashboardSummary };

export type SectionKey = keyof DashboardSummary;

export interface DashboardSection {
  key: SectionKey;
  figures: readonly string[];
  /** Figures that are amounts of money in sen (shown in ringgit). */
  money?: readonly string[];
  /** Where a figure leads: its list, filtered to that status; none while the list is missing. */
  linkFor: (figure: string, summary?: DashboardSummary) => string | undefined;
}

/**
 * The list page of the module behind menu entry `menuCode`, from the declarations
 * (src/shared/modules, found by ../registry): each is a resource of the console, its list at `paths.list`.
 */
function listOf(menuCode: string): string | undefined {
  return MODULES.find((module) => module.menu === menuCode)?.paths.list;
}

/** A list filtered to `field = value`, or undefined when no module has that list. */
function filteredLink(menuCode: string, field: string, value: string): string | undefined {
  const list = listOf(menuCode);
  if (!list) return undefined;
  // The same query string the list's own table writes, so the filter shows as applied.
  const query = stringifyTableParams({
    filters: [{ field, operator: "eq", value }],
    sorters: [],
    pagination: { currentPage: 1, pageSize: 10 },
  });
  return `${list}?${query}`;
}

/** The list of module `name` filtered to `field = value` (or unfiltered for the total). */
function listLink(name: string, field: string, figure: string): string | undefined {
  const module = MODULES.find((candidate) => candidate.name === name);
  if (!module) return undefined;
  if (figure === "total") return listOf(module.menu);
  return filteredLink(module.menu, field, figure);
}

/** The top-ups of one business day (`YYYY-MM-DD`), as the list's own date filter writes it. */
function topUpsOn(day: string | undefined): string | undefined {
  const list = listOf("top-up-transaction");
  if (!list || !day) return undefined;
  const query = stringifyTableParams({
    filters: [
      { field: "createdAt", operator: "between", value: [day, day] },
      { field: "status", operator: "eq", value: "success" },
    ],
    sorters: [],
    pagination: { currentPage: 1, pageSize: 10 },
  });
  return `${list}?${query}`;
}

/** The Merchant Transaction Summary of one business day. */
function summaryOn(day: string | undefined): string | undefined {
  const list = listOf("merchant-transaction-summary");
  if (!list || !day) return undefined;
  const query = stringifyTableParams({
    filters: [{ field: "day", operator: "between", value: [day, day] }],
    sorters: [],
    pagination: { currentPage: 1, pageSize: 10 },
  });
  return `${list}?${query}`;
}

/** Where each queue's work is done: its list, filtered to the waiting rows when needed. */
function queueLink(key: string): string | undefined {
  const queue = DASHBOARD_QUEUES.find((candidate) => candidate.key === key);
  if (!queue) return undefined;
  return "filter" in queue
    ? filteredLink(queue.menu, queue.filter.field, queue.filter.value)
    : listOf(queue.menu);
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
  {
    key: "pending",
    figures: DASHBOARD_QUEUES.map((queue) => queue.key),
    linkFor: queueLink,
  },
  {
    key: "businesses",
    figures: ["approved", "suspended"],
    linkFor: (figure) => filteredLink("business-mgmt", "status", figure),
  },
  {
    key: "today",
    figures: ["topUps", "topUpSen", "payments", "paymentSen"],
    money: ["topUpSen", "paymentSen"],
    linkFor: (figure, summary) =>
      figure.startsWith("topUp")
        ? topUpsOn(summary?.today?.businessDay)
        : summaryOn(summary?.today?.businessDay),
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
