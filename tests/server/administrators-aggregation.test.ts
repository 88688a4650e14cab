import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { App } from "../../server/app";
import type { AdminDto, AdministratorList } from "../../src/shared/schemas/administrators";
import { auth, createTestApp, DEMO, login } from "./support/app";
import { createTestDatabase, type TestDatabase } from "./support/database";

let testDb: TestDatabase;
let app: App;
let token: string;
/** Every administrator in the default order (createdAt desc, id desc). */
let everyone: AdminDto[];

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb);
  token = (await login(app, DEMO.superAdmin)).token;
  everyone = (await list({ pagination: { pageSize: 100 } })).administrators;
});

afterAll(async () => {
  await app?.close();
  await testDb?.destroy();
});

type Params = { filter?: unknown; sort?: unknown; pagination?: unknown } & Record<string, unknown>;

/** Encodes each parameter as the console does: JSON, unless given as a raw string. */
function query(params: Params) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    search.set(key, typeof value === "string" ? value : JSON.stringify(value));
  }
  return `/v1/api/administrators/aggregation?${search.toString()}`;
}

const request = (params: Params) => app.inject({ url: query(params), headers: auth(token) });

async function list(params: Params): Promise<AdministratorList> {
  const response = await request(params);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe("GET /v1/api/administrators/aggregation: valid queries", () => {
  it("lists the first page of 10, newest first, with the total count", async () => {
    const page = await list({});
    expect(page.totalCount).toBe(everyone.length);
    expect(page.totalCount).toBeGreaterThanOrEqual(12);
    expect(page.administrators).toHaveLength(10);
    expect(page.administrators).toEqual(everyone.slice(0, 10));
    const created = everyone.map((admin) => Date.parse(admin.createdAt));
    expect(created).toEqual([...created].sort((a, b) => b - a));
  });

  it("pages with page and pageSize", async () => {
    const page = await list({ pagination: { page: 2, pageSize: 5 } });
    expect(page.administrators).toEqual(everyone.slice(5, 10));
    expect(page.totalCount).toBe(everyone.length);
    const beyond = await list({ pagination: { page: 50, pageSize: 10 } });
    expect(beyond).toEqual({
      totalCount: everyone.length,
      administrators: [],
      totalCountExact: true,
    });
  });

  it("filters by equality, $in, $ne, booleans and dates", async () => {
    const banned = await list({ filter: { status: "banned" } });
    expect(banned.administrators.map((a) => a.email)).toEqual([DEMO.banned.email]);
    expect(banned.totalCount).toBe(1);

    const inactive = await list({ filter: { status: { $in: ["disabled", "banned"] } } });
    expect(inactive.administrators.every((a) => a.status !== "active")).toBe(true);
    expect(inactive.totalCount).toBe(everyone.filter((a) => a.status !== "active").length);

    const notActive = await list({ filter: { status: { $ne: "active" } } });
    expect(notActive.totalCount).toBe(inactive.totalCount);

    const supers = await list({ filter: { isSuperAdmin: true } });
    expect(supers.administrators.map((a) => a.email).sort()).toEqual([
      DEMO.approver.email,
      DEMO.superAdmin.email,
    ]);

    const since = "2026-03-01";
    const recent = await list({
      filter: { createdAt: { $gte: since } },
      pagination: { pageSize: 100 },
    });
    expect(recent.totalCount).toBe(everyone.filter((a) => a.createdAt >= since).length);
    expect(recent.totalCount).toBeGreaterThan(0);
    expect(recent.totalCount).toBeLessThan(everyone.length);
  });

  it("searches name and e-mail case-insensitively, and combines with $or", async () => {
    const found = await list({ filter: { $search: "FINANCE" } });
    expect(found.administrators.map((a) => a.email).sort()).toEqual([
      DEMO.checker.email,
      DEMO.finance.email,
    ]);

    const either = await list({
      filter: { $or: [{ email: { $startsWith: "userdesk@" } }, { name: { $contains: "nair" } }] },
    });
    expect(either.administrators.map((a) => a.email).sort()).toEqual(
      ["meera.nair@wallet.example", DEMO.userDesk.email].sort(),
    );

    const never = await list({ filter: { lastLoginAt: { $null: false }, status: "banned" } });
    expect(never.totalCount).toBe(0);
  });

  it("sorts by the given keys in order, with a stable tie-breaker", async () => {
    const byName = await list({ sort: { name: 1 }, pagination: { pageSize: 100 } });
    expect(byName.administrators[0]?.name).toBe("Aisyah Rahman");
    expect(byName.administrators.at(-1)?.name).toBe("Zara Ong");

    const byId = await list({ sort: { id: 1 }, pagination: { pageSize: 100 } });
    const ids = byId.administrators.map((a) => a.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));

    const byStatus = await list({ sort: { status: -1, id: 1 }, pagination: { pageSize: 100 } });
    const statuses = byStatus.administrators.map((a) => a.status);
    expect(statuses[0]).toBe("disabled");
    expect(statuses.at(-1)).toBe("active");
  });

  it("treats omitted parameters as the defaults", async () => {
    const page = await list({});
    expect(page.administrators).toEqual(everyone.slice(0, 10));
  });
});

describe("GET /v1/api/administrators/aggregation: invalid queries", () => {
  const cases: Array<[string, Params, RegExp]> = [
    ["malformed JSON in filter", { filter: "{status:" }, /^Invalid filter: malformed JSON/],
    ["a filter that is not an object", { filter: [1] }, /^Invalid filter: must be a JSON object/],
    [
      "a field that is not filterable",
      { filter: { permissions: 8 } },
      /^Invalid filter: field "permissions" is not filterable/,
    ],
    [
      "a secret field",
      { filter: { passwordHash: "x" } },
      /^Invalid filter: field "passwordHash" is not filterable/,
    ],
    ["an unknown operator", { filter: { name: { $regex: "a" } } }, /^Invalid filter: .*\$regex/],
    ["a wrong value type", { filter: { id: "one" } }, /^Invalid filter: .*id/],
    ["a value outside an enum", { filter: { status: "retired" } }, /^Invalid filter: .*status/],
    [
      "a malformed date",
      { filter: { createdAt: { $gte: "March" } } },
      /^Invalid filter: .*createdAt/,
    ],
    [
      "a field that is not sortable",
      { sort: { isSuperAdmin: 1 } },
      /^Invalid sort: field "isSuperAdmin" is not sortable/,
    ],
    ["a sort direction other than 1 or -1", { sort: { name: 2 } }, /^Invalid sort: .*direction/],
    ["malformed JSON in sort", { sort: "name" }, /^Invalid sort: malformed JSON/],
    [
      "pageSize 101",
      { pagination: { page: 1, pageSize: 101 } },
      /^Invalid pagination: "pageSize" must be between 1 and 100, got 101/,
    ],
    ["page 0", { pagination: { page: 0 } }, /^Invalid pagination: "page" must be between/],
    [
      "a fractional page",
      { pagination: { page: 1.5 } },
      /^Invalid pagination: "page" must be an integer/,
    ],
    [
      "an unknown pagination key",
      { pagination: { limit: 5 } },
      /^Invalid pagination: unknown key "limit"/,
    ],
    ["an unknown query parameter", { foo: "1" }, /^Invalid foo: unknown query parameter/],
    // Blank parameters used to be read as omitted.
    ["an empty filter", { filter: "" }, /^Invalid filter: is blank/],
    ["a blank sort", { sort: " " }, /^Invalid sort: is blank/],
    ["a vertical-tab pagination", { pagination: "\v" }, /^Invalid pagination: is blank/],
    ["a no-break-space filter", { filter: "\u00a0" }, /^Invalid filter: is blank/],
    ["a byte-order-mark sort", { sort: "\ufeff" }, /^Invalid sort: is blank/],
    ["an ideographic-space pagination", { pagination: "\u3000" }, /^Invalid pagination: is blank/],
    ["a page as a hex string", { pagination: '{"page": "0x10"}' }, /"page" must be an integer/],
    ["a page in exponent form", { pagination: '{"page": "1e2"}' }, /"page" must be an integer/],
    ["a duplicate key", { filter: '{"name": "a", "name": "b"}' }, /duplicate key "name"/],
    ["a NUL byte in a filter value", { filter: '{"name": "a\\u0000"}' }, /control characters/],
  ];

  it.each(cases)("400 INVALID_QUERY for %s", async (_name, params, message) => {
    const response = await request(params);
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.code).toBe("INVALID_QUERY");
    expect(body.message).toMatch(message);
  });

  it("400 INVALID_QUERY for a parameter given twice", async () => {
    const response = await app.inject({
      url: "/v1/api/administrators/aggregation?sort=%7B%7D&sort=%7B%7D",
      headers: auth(token),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: "INVALID_QUERY",
      message: expect.stringMatching(/^Invalid sort/),
    });
  });
});
