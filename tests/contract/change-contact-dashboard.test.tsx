/**
 * The dashboard's queues (GET /api/dashboard/summary `pending`, src/shared/dashboard-queues.ts)
 * and where each leads: the Approval list, the Change Contact list filtered to pending, the users
 * list filtered to riders whose verification is pending, Business Approval, the business update
 * requests filtered to pending, open user reports, and the reconciliation's red days.
 */
import { parseTableParams } from "@refinedev/core";
import { describe, expect, it } from "vitest";

import { DASHBOARD_SECTIONS, figureOf } from "../../src/app/dashboard/sections";

const pending = DASHBOARD_SECTIONS.find((section) => section.key === "pending")!;

function filtersOf(link: string | undefined) {
  const [path, query = ""] = (link ?? "").split("?");
  return { path, filters: parseTableParams(`?${query}`).parsedFilters };
}

describe("dashboard: pending figures", () => {
  it("shows every queue: approvals, contact changes, rider verifications, the merchants', open reports and red days", () => {
    expect(pending.figures).toEqual([
      "approvals",
      "changeContact",
      "riderVerifications",
      "businessApprovals",
      "businessUpdates",
      "userReports",
      "redDays",
    ]);
    const summary = { pending: { approvals: 3, changeContact: 2, riderVerifications: 1 } };
    expect(figureOf(summary, "pending", "changeContact")).toBe(2);
    expect(figureOf({}, "pending", "approvals")).toBeUndefined();
  });

  it("links each figure to its list, filtered to the pending work", () => {
    expect(pending.linkFor("approvals")).toBe("/user-approval");
    expect(filtersOf(pending.linkFor("changeContact"))).toEqual({
      path: "/user-change-contact",
      filters: [{ field: "status", operator: "eq", value: "pending" }],
    });
    expect(filtersOf(pending.linkFor("riderVerifications"))).toEqual({
      path: "/user-mgmt",
      filters: [{ field: "riderVerification", operator: "eq", value: "pending" }],
    });
    expect(pending.linkFor("businessApprovals")).toBe("/business-approval");
    expect(filtersOf(pending.linkFor("businessUpdates"))).toEqual({
      path: "/business-update",
      filters: [{ field: "status", operator: "eq", value: "pending" }],
    });
    expect(filtersOf(pending.linkFor("userReports"))).toEqual({
      path: "/user-report",
      filters: [{ field: "status", operator: "eq", value: "open" }],
    });
    expect(filtersOf(pending.linkFor("redDays"))).toEqual({
      path: "/reconciliation",
      filters: [{ field: "status", operator: "eq", value: "failed" }],
    });
  });
});
