/**
 * Business Update requests (issue 11) through HTTP on a real database, beyond the conformance
 * suite: the list shows old → new per field (the settlement account masked); approving applies
 * the change to the business in the same transaction, audited on both; a request the business
 * has moved past, one naming a field businesses no longer have and one on a rejected business
 * are refused with their codes and change nothing.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { businesses, businessUpdateRequests } from "../../server/db/schema";
import { createAdmin, DEMO, login } from "./support/app";
import {
  auditEntries,
  call,
  expectError,
  expectNoPermission,
  useUserDeskSuite,
} from "./support/user-fixtures";

const suite = useUserDeskSuite();
let staff = "";

beforeAll(async () => {
  const superToken = (await login(suite.app, DEMO.superAdmin)).token;
  staff = (await createAdmin(suite.app, superToken, [4])).token;
}, 60_000);

type Status = "pending" | "approved" | "rejected" | "suspended";

/** A business in `status` and a new pending request on it, proposed against its current values. */
async function requestOn(
  status: Status,
  changes: Record<string, string>,
  previous?: Record<string, string>,
) {
  const [business] = await suite.db
    .select()
    .from(businesses)
    .where(eq(businesses.status, status))
    .limit(1);
  const current = business as unknown as Record<string, string>;
  const [request] = await suite.db
    .insert(businessUpdateRequests)
    .values({
      businessId: business!.id,
      changes,
      previous:
        previous ?? Object.fromEntries(Object.keys(changes).map((key) => [key, current[key]!])),
    })
    .returning();
  return { business: business!, request: request! };
}

const decide = (id: number, action: "approve" | "reject", remark = "Checked") =>
  call(suite.app, staff, "PATCH", `/api/business-update-requests/${id}/approval-action`, {
    action,
    remark,
  });

const businessRow = async (id: number) =>
  (await suite.db.select().from(businesses).where(eq(businesses.id, id)))[0]!;
const requestRow = async (id: number) =>
  (
    await suite.db.select().from(businessUpdateRequests).where(eq(businessUpdateRequests.id, id))
  )[0]!;

describe("GET /api/business-update-requests", () => {
  it("shows each request's changes field by field, old → new, the account masked", async () => {
    const { business, request } = await requestOn("approved", {
      bankAccount: "123456789012",
      name: "Renamed Kitchen",
    });
    const response = await call(
      suite.app,
      staff,
      "GET",
      `/api/business-update-requests/${request.id}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      businessId: business.id,
      businessName: business.name,
      status: "pending",
      // In the order the business shows its fields: the name before the account.
      changes: [
        { field: "name", from: business.name, to: "Renamed Kitchen" },
        { field: "bankAccount", from: `•••• ${business.bankAccount.slice(-4)}`, to: "•••• 9012" },
      ],
    });
    expect(response.body).not.toContain("123456789012");
    expect(response.body).not.toContain(business.bankAccount);
    const list = await call(
      suite.app,
      staff,
      "GET",
      `/api/business-update-requests/aggregation?filter=${encodeURIComponent(
        JSON.stringify({ status: "pending" }),
      )}`,
    );
    expect(list.statusCode, list.body).toBe(200);
    const rows = list.json().businessUpdateRequests as Array<{ id: number; status: string }>;
    expect(rows.some((row) => row.id === request.id)).toBe(true);
    expect(rows.every((row) => row.status === "pending")).toBe(true);
  });

  it("is Business (4)'s: the finance desk cannot read or decide", async () => {
    const { request } = await requestOn("approved", { name: "Nobody Reads This" });
    expectNoPermission(
      await call(suite.app, suite.finance, "GET", "/api/business-update-requests/aggregation"),
      "GET",
      "Business Update Requests",
    );
    const denied = await call(
      suite.app,
      suite.finance,
      "PATCH",
      `/api/business-update-requests/${request.id}/approval-action`,
      { action: "approve", remark: "No" },
    );
    expectNoPermission(denied, "PATCH", "Business Update Request");
    expect((await requestRow(request.id)).status).toBe("pending");
  });
});

describe("PATCH /api/business-update-requests/{id}/approval-action", () => {
  it("approving applies the changes to the business in the same transaction, audited on both", async () => {
    const { business, request } = await requestOn("approved", {
      name: "Block A Canteen & Grill",
      category: "cafe",
    });
    const response = await decide(request.id, "approve", "Signage checked");
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ status: "approved", remark: "Signage checked" });
    const after = await businessRow(business.id);
    expect(after).toMatchObject({ name: "Block A Canteen & Grill", category: "cafe" });
    // The business's own fields the request did not name are as they were.
    expect(after.bankAccount).toBe(business.bankAccount);
    expect(after.feeRateBp).toBe(business.feeRateBp);
    const [onBusiness] = await auditEntries(suite.db, "businesses", business.id);
    expect(onBusiness).toMatchObject({
      action: "business.apply_update",
      remark: "Signage checked",
      before: expect.objectContaining({ name: business.name, category: business.category }),
      after: expect.objectContaining({ name: "Block A Canteen & Grill", category: "cafe" }),
    });
    const [onRequest] = await auditEntries(suite.db, "business_update_requests", request.id);
    expect(onRequest).toMatchObject({ action: "business_update.approve" });
    // Deciding again is refused: someone decided first.
    expectError(await decide(request.id, "reject"), 409, "ALREADY_DECIDED");
  });

  it("rejecting keeps the remark and changes nothing on the business", async () => {
    const { business, request } = await requestOn("approved", { name: "Never Applied" });
    const response = await decide(request.id, "reject", "The name clashes with another shop");
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      status: "rejected",
      remark: "The name clashes with another shop",
      reviewerName: expect.any(String),
    });
    expect(await businessRow(business.id)).toEqual(business);
  });

  it("refuses with 409 BUSINESS_CHANGED_SINCE when the business changed after the request", async () => {
    const { business, request } = await requestOn(
      "approved",
      { name: "Stale Rename" },
      { name: "A Name It No Longer Has" },
    );
    const response = await decide(request.id, "approve");
    expectError(response, 409, "BUSINESS_CHANGED_SINCE");
    expect(response.json()).toMatchObject({ data: { field: "name" } });
    expect(await businessRow(business.id)).toEqual(business);
    expect(await requestRow(request.id)).toMatchObject({ status: "pending", reviewerId: null });
    expect(await auditEntries(suite.db, "business_update_requests", request.id)).toHaveLength(0);
  });

  it("a change to another field since does not block it", async () => {
    const { business, request } = await requestOn("approved", { bankName: "RHB Bank" });
    const fee = await call(suite.app, staff, "PATCH", `/api/businesses/${business.id}`, {
      feeRateBp: 333,
    });
    expect(fee.statusCode, fee.body).toBe(200);
    const response = await decide(request.id, "approve");
    expect(response.statusCode, response.body).toBe(200);
    expect(await businessRow(business.id)).toMatchObject({ bankName: "RHB Bank", feeRateBp: 333 });
  });

  it("refuses a request naming a field businesses no longer have, or a value the rules refuse", async () => {
    for (const [changes, code, field] of [
      [{ openingHours: "08:00–22:00" }, "UPDATE_FIELD_REMOVED", "openingHours"],
      [{ name: "Kept", logo: "x.png" }, "UPDATE_FIELD_REMOVED", "logo"],
      [{ category: "casino" }, "UPDATE_VALUE_INVALID", "category"],
      [{ bankAccount: "12ab" }, "UPDATE_VALUE_INVALID", "bankAccount"],
      [{ name: "bad\u0007name" }, "UPDATE_VALUE_INVALID", "name"],
    ] as const) {
      const { business, request } = await requestOn("approved", changes, {});
      const response = await decide(request.id, "approve");
      expectError(response, 409, code);
      expect(response.json()).toMatchObject({ data: { field } });
      expect(await businessRow(business.id)).toEqual(business);
      expect((await requestRow(request.id)).status).toBe("pending");
      // Rejecting it is how staff clear it.
      expect((await decide(request.id, "reject")).statusCode).toBe(200);
    }
  });

  it("refuses to change a rejected business (409 BUSINESS_REJECTED)", async () => {
    const { business, request } = await requestOn("rejected", { name: "Second Try" });
    const response = await decide(request.id, "approve");
    expectError(response, 409, "BUSINESS_REJECTED");
    expect(await businessRow(business.id)).toEqual(business);
  });

  it("refuses a bad body, an unknown request and a missing remark with 400 / 404", async () => {
    const { request } = await requestOn("approved", { name: "Body Check" });
    for (const body of [
      { action: "approve" },
      { action: "approve", remark: "   " },
      { action: "apply", remark: "x" },
      { action: "approve", remark: "x", changes: { name: "Sneaky" } },
    ]) {
      const response = await call(
        suite.app,
        staff,
        "PATCH",
        `/api/business-update-requests/${request.id}/approval-action`,
        body,
      );
      expectError(response, 400, "VALIDATION_ERROR");
    }
    expectError(await decide(99_999_999, "approve"), 404, "NOT_FOUND");
    expect((await requestRow(request.id)).status).toBe("pending");
  });
});
