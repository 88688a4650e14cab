/**
 * Business (issue 11) through HTTP on a real database, beyond what the conformance suite holds
 * every module to: the fee rate edit (its range, its audit entry, refused on a rejected
 * business), the settlement account never leaving the server whole, and a decision's remark
 * and reviewer on the record.
 */
import { and, count, desc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { businesses, walletTransactions } from "../../server/db/schema";
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

async function businessIn(status: "pending" | "approved" | "rejected" | "suspended") {
  const [row] = await suite.db
    .select()
    .from(businesses)
    .where(eq(businesses.status, status))
    .limit(1);
  return row!;
}

describe("PATCH /api/businesses/{id} (fee rate)", () => {
  it("sets the fee rate in basis points, 0 to 10000, and audits the change", async () => {
    const business = await businessIn("approved");
    for (const feeRateBp of [0, 10_000, 275]) {
      const response = await call(suite.app, staff, "PATCH", `/api/businesses/${business.id}`, {
        feeRateBp,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ id: business.id, feeRateBp });
    }
    const [entry] = await auditEntries(suite.db, "businesses", business.id);
    expect(entry).toMatchObject({
      action: "business.update",
      before: expect.objectContaining({ feeRateBp: 10_000 }),
      after: expect.objectContaining({ feeRateBp: 275 }),
    });
  });

  it("refuses 10001, -1, fractions, text and other fields, changing nothing", async () => {
    const business = await businessIn("approved");
    for (const body of [
      { feeRateBp: 10_001 },
      { feeRateBp: -1 },
      { feeRateBp: 2.5 },
      { feeRateBp: "250" },
      { feeRateBp: 250, name: "Renamed" },
      { name: "Renamed" },
    ]) {
      const response = await call(
        suite.app,
        staff,
        "PATCH",
        `/api/businesses/${business.id}`,
        body,
      );
      expectError(response, 400, "VALIDATION_ERROR");
    }
    const [after] = await suite.db.select().from(businesses).where(eq(businesses.id, business.id));
    expect(after).toEqual(business);
  });

  it("refuses a rejected business with 409 BUSINESS_REJECTED, and staff without Business (4)", async () => {
    const rejected = await businessIn("rejected");
    const response = await call(suite.app, staff, "PATCH", `/api/businesses/${rejected.id}`, {
      feeRateBp: 100,
    });
    expectError(response, 409, "BUSINESS_REJECTED");
    expect(response.json()).toMatchObject({ data: { status: "rejected" } });
    const denied = await call(suite.app, suite.finance, "PATCH", `/api/businesses/${rejected.id}`, {
      feeRateBp: 100,
    });
    expectNoPermission(denied, "PATCH", "Business");
  });
});

describe("the settlement account", () => {
  it("shows only its last four digits, in the list, the detail and the CSV's source", async () => {
    const business = await businessIn("approved");
    const shown = await call(suite.app, staff, "GET", `/api/businesses/${business.id}`);
    expect(shown.json()).toMatchObject({ bankAccount: `•••• ${business.bankAccount.slice(-4)}` });
    const list = await call(suite.app, staff, "GET", "/api/businesses/aggregation");
    expect(list.body).not.toContain(business.bankAccount);
    expect(shown.body).not.toContain(business.bankAccount);
  });
});

describe("PATCH /api/businesses/{id}/approval-action", () => {
  it("keeps the remark and who decided, on the business and in its history", async () => {
    const pending = await businessIn("pending");
    const response = await call(
      suite.app,
      staff,
      "PATCH",
      `/api/businesses/${pending.id}/approval-action`,
      { action: "approve", remark: "Documents checked" },
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      status: "approved",
      remark: "Documents checked",
      reviewerName: expect.any(String),
      reviewedAt: expect.any(String),
    });
    const [entry] = await auditEntries(suite.db, "businesses", pending.id);
    expect(entry).toMatchObject({ action: "business.approve", remark: "Documents checked" });
    // The record's history, as its detail page shows it.
    const history = await call(suite.app, staff, "GET", `/api/businesses/${pending.id}/audit`);
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json()).toMatchObject({
      totalCount: 1,
      entries: [
        {
          action: "business.approve",
          remark: "Documents checked",
          adminName: expect.any(String),
          before: expect.objectContaining({ status: "pending" }),
          after: expect.objectContaining({ status: "approved" }),
        },
      ],
    });
    expectError(
      await call(suite.app, staff, "GET", "/api/businesses/999999/audit"),
      404,
      "NOT_FOUND",
    );
  });
});

describe("GET /api/businesses/{id}/payments", () => {
  it("lists the business's payments newest first, paged, each as the amount paid", async () => {
    // The business paid most often in the demo ledger.
    const [busiest] = await suite.db
      .select({ id: walletTransactions.businessId })
      .from(walletTransactions)
      .where(eq(walletTransactions.type, "payment"))
      .groupBy(walletTransactions.businessId)
      .orderBy(desc(count()))
      .limit(1);
    const business = { id: busiest!.id! };
    const query = (params: Record<string, unknown>) =>
      new URLSearchParams(
        Object.entries(params).map(([key, value]): [string, string] => [
          key,
          JSON.stringify(value),
        ]),
      ).toString();
    const response = await call(
      suite.app,
      staff,
      "GET",
      `/api/businesses/${business.id}/payments?${query({ pagination: { page: 1, pageSize: 5 } })}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as {
      totalCount: number;
      payments: Array<{ id: number; createdAt: string; amountSen: number; payerName: string }>;
    };
    const ledger = await suite.db
      .select()
      .from(walletTransactions)
      .where(
        and(eq(walletTransactions.businessId, business.id), eq(walletTransactions.type, "payment")),
      )
      .orderBy(desc(walletTransactions.createdAt), desc(walletTransactions.id));
    expect(ledger.length).toBeGreaterThan(5);
    // The contract counts up to 1,000 rows and says when it stopped.
    expect(body).toMatchObject(
      ledger.length > 1000
        ? { totalCount: 1000, totalCountExact: false }
        : { totalCount: ledger.length },
    );
    expect(body.payments.map((row) => row.id)).toEqual(ledger.slice(0, 5).map((row) => row.id));
    expect(body.payments.map((row) => row.amountSen)).toEqual(
      ledger.slice(0, 5).map((row) => -row.amountSen),
    );
    expect(body.payments.every((row) => row.amountSen > 0 && row.payerName !== "")).toBe(true);
    // Sorted by amount on request; refused when sorted or filtered by what it does not allow.
    const byAmount = await call(
      suite.app,
      staff,
      "GET",
      `/api/businesses/${business.id}/payments?${query({ sort: { amountSen: -1 } })}`,
    );
    const amounts = (byAmount.json() as typeof body).payments.map((row) => row.amountSen);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    for (const bad of [{ sort: { reference: 1 } }, { filter: { businessId: 1 } }]) {
      const refused = await call(
        suite.app,
        staff,
        "GET",
        `/api/businesses/${business.id}/payments?${query(bad)}`,
      );
      expectError(refused, 400, "INVALID_QUERY");
    }
  });

  it("answers 404 for an unknown business and 403 without Business (4)", async () => {
    expectError(
      await call(suite.app, staff, "GET", "/api/businesses/999999/payments"),
      404,
      "NOT_FOUND",
    );
    const business = await businessIn("approved");
    expectNoPermission(
      await call(suite.app, suite.finance, "GET", `/api/businesses/${business.id}/payments`),
      "GET",
      "Business payments",
    );
  });
});
