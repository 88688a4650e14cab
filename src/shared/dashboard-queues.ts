/**
 * The dashboard's queues: work waiting for staff. One entry each: the server counts it (its
 * condition in server/routes/dashboard-figures.ts, keyed by `key`) only for holders of
 * `permission`, and the console's tile leads to the list of menu entry `menu`, filtered by
 * `filter` when the list is not the queue itself. Its label is `dashboard:pending.<key>`.
 */
import { PERMISSION } from "./permissions";

export interface DashboardQueue {
  key: string;
  permission: number;
  menu: string;
  filter?: { field: string; value: string };
}

export const DASHBOARD_QUEUES = [
  { key: "approvals", permission: PERMISSION.user, menu: "user-approval" },
  {
    key: "changeContact",
    permission: PERMISSION.user,
    menu: "user-change-contact",
    filter: { field: "status", value: "pending" },
  },
  {
    key: "riderVerifications",
    permission: PERMISSION.user,
    menu: "user-mgmt",
    filter: { field: "riderVerification", value: "pending" },
  },
  { key: "businessApprovals", permission: PERMISSION.business, menu: "business-approval" },
  {
    key: "businessUpdates",
    permission: PERMISSION.business,
    menu: "business-update",
    filter: { field: "status", value: "pending" },
  },
  {
    key: "userReports",
    permission: PERMISSION.report,
    menu: "user-report",
    filter: { field: "status", value: "open" },
  },
  // A red reconciled day stays until it is marked investigated (docs/reconciliation.md).
  {
    key: "redDays",
    permission: PERMISSION.settlement,
    menu: "reconciliation",
    filter: { field: "status", value: "failed" },
  },
] as const satisfies readonly DashboardQueue[];

export type DashboardQueueKey = (typeof DASHBOARD_QUEUES)[number]["key"];
