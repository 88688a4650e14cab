/**
 * Audit Log (issue 31) through HTTP on a real database: each viewer sees the entries of the areas
 * whose codes they hold (the super administrator all), filtered by administrator, area, action,
 * record and day, each with its changed fields; every prefix the server writes has an area.
 */
import { readdirSync, readFileSync } from "node:fs";

import { count, isNull } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { businessDayOf } from "../../server/business-day";
import { auditLog } from "../../server/db/schema";
import { auditLogModule, AUDIT_OWNERS } from "../../server/modules/audit-log";
import { createAdmin, DEMO, login } from "./support/app";
import {
  call,
  callApproved,
  expectNoPermission,
  insertWalletUser,
  useUserDeskSuite,
} from "./support/user-fixtures";

const suite = useUserDeskSuite();
let superToken = "";
let superId = 0;
let viewer = ""; // holds Admin (8) and Top Up (33) only
let topUpId = 0;
let businessId = 0;
type Entry = Record<string, unknown> & { id: number; changes: Array<Record<string, unknown>> };

const list = async (token: string, filter: object = {}) => {
  const query = new URLSearchParams({
    filter: JSON.stringify(filter),
    pagination: JSON.stringify({ page: 1, pageSize: 100 }),
  });
  const response = await call(suite.app, token, "GET", `/api/audit-log/aggregation?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ totalCount: number; auditLog: Entry[] }>();
};

beforeAll(async () => {
  const signedIn = await login(suite.app, DEMO.superAdmin);
  [superToken, superId] = [signedIn.token, signedIn.admin.id];
  viewer = (await createAdmin(suite.app, superToken, [8, 33])).token;
  const user = await insertWalletUser(suite.db);
  const topUp = await call(suite.app, superToken, "POST", "/api/top-up-transactions", {
    accountNumber: user.accountNumber,
    amountSen: 2_000,
    channel: "counter",
  });
  topUpId = topUp.json<{ id: number }>().id;
  const reversed = await callApproved(
    suite.app,
    superToken,
    "POST",
    `/api/top-up-transactions/${topUpId}/reverse`,
    {
      remark: "Keyed in twice",
    },
  );
  expect(reversed.statusCode, reversed.body).toBe(200);
  const approved = encodeURIComponent(JSON.stringify({ status: "approved" }));
  const businesses = await call(
    suite.app,
    superToken,
    "GET",
    `/api/businesses/aggregation?filter=${approved}`,
  );
  businessId = businesses.json<{ businesses: Array<{ id: number }> }>().businesses[0]!.id;
  const edited = await call(suite.app, superToken, "PATCH", `/api/businesses/${businessId}`, {
    feeRateBp: 1_234,
  });
  expect(edited.statusCode, edited.body).toBe(200);
}, 60_000);

describe("GET /api/audit-log/aggregation", () => {
  it("shows the super administrator every area, newest first", async () => {
    const { auditLog: rows } = await list(superToken);
    const areas = new Set(rows.map((row) => row.area));
    for (const area of ["admin", "topUp", "business"]) expect(areas).toContain(area);
    expect(rows.map((row) => row.id)).toEqual([...rows.map((row) => row.id)].sort((a, b) => b - a));
  });

  it("shows another administrator only the areas whose codes they hold, counts included", async () => {
    const { auditLog: rows, totalCount } = await list(viewer);
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((row) => row.area))).toEqual(new Set(["admin", "topUp"]));
    expect(totalCount).toBeLessThan((await list(superToken)).totalCount);
    expect(await list(viewer, { area: "business" })).toMatchObject({ totalCount: 0, auditLog: [] });
  });

  it("filters by administrator, area, action, record and day", async () => {
    const byAdmin = (await list(superToken, { adminId: superId })).auditLog;
    expect(byAdmin.length).toBeGreaterThan(0);
    for (const row of byAdmin) expect(row.adminId).toBe(superId);
    const reversal = await list(viewer, { action: "top_up.reverse", targetId: String(topUpId) });
    expect(reversal.auditLog).toHaveLength(1);
    expect(reversal.auditLog[0]).toMatchObject({
      area: "topUp",
      module: "top-up-transactions",
      remark: "Keyed in twice",
      changes: expect.arrayContaining([{ field: "status", from: "success", to: "reversed" }]),
    });
    const today = businessDayOf(new Date());
    const fromToday = await list(superToken, { area: "business", createdAt: { $gte: today } });
    expect(fromToday.auditLog.map((row) => row.targetId)).toContain(String(businessId));
    expect((await list(superToken, { createdAt: { $lte: "2000-01-01" } })).totalCount).toBe(0);
  });

  it("shows an edit's changed field from → to, in the record's module", async () => {
    const { auditLog: rows } = await list(superToken, { action: "business.update" });
    const edit = rows.find((row) => row.targetId === String(businessId))!;
    expect(edit).toMatchObject({
      area: "business",
      module: "businesses",
      adminName: expect.any(String),
    });
    expect(edit.changes).toContainEqual(expect.objectContaining({ field: "feeRateBp", to: 1_234 }));
    expect(edit.changes.map((change) => change.field)).not.toContain("updatedAt");
  });

  it("refuses an administrator without Admin (8)", async () => {
    const noAdmin = (await createAdmin(suite.app, superToken, [33])).token;
    const response = await call(suite.app, noAdmin, "GET", "/api/audit-log/aggregation");
    expectNoPermission(response, "GET", "Audit Entries");
  });
});

describe("every audit entry has an area", () => {
  it("in the database: the seeded entries and this file's", async () => {
    const area = auditLogModule.binding.columns!.area!;
    const [unmapped] = await suite.db.select({ n: count() }).from(auditLog).where(isNull(area));
    expect(unmapped!.n).toBe(0);
  });

  it("in the server's code: every prefix a route or a service writes by hand", () => {
    const root = new URL("../../server/", import.meta.url);
    const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((file) =>
      file.endsWith(".ts"),
    );
    const prefixes = files.flatMap((file) =>
      [...readFileSync(new URL(file, root), "utf8").matchAll(/action: "([a-z_]+)\./g)].map(
        (match) => match[1]!,
      ),
    );
    expect(prefixes.length).toBeGreaterThan(5);
    for (const prefix of new Set(prefixes)) expect(AUDIT_OWNERS.get(prefix), prefix).toBeDefined();
  });
});
