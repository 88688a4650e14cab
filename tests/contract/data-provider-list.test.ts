import type { CrudFilter, GetListParams } from "@refinedev/core";
import { delay, http as mswHttp, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";

import { UnsupportedFilterError } from "../../src/providers/aggregation-encoder";
import { dataProvider } from "../../src/providers/data";
import { API, jsonParam, useApiServer } from "./support/msw";

const { server, requests } = useApiServer();

const rows = [{ id: 1 }, { id: 2 }];

function serveList(collection: string, body: unknown = { totalCount: 42, [collection]: rows }) {
  server.use(
    mswHttp.get(`${API}/api/${collection}/aggregation`, () => HttpResponse.json(body as object)),
  );
}

async function listRequest(params: Partial<GetListParams> = {}): Promise<Request> {
  serveList("administrators");
  await dataProvider.getList({ resource: "administrators", ...params });
  expect(requests).toHaveLength(1);
  return requests[0]!;
}

const filterSent = async (filters: CrudFilter[]) =>
  jsonParam(await listRequest({ filters }), "filter");

describe("getList: filters", () => {
  it.each([
    ["eq", "active", "active"],
    ["eqs", "active", "active"],
    ["ne", "banned", { $ne: "banned" }],
    ["nes", "banned", { $ne: "banned" }],
    ["in", ["active", "disabled"], { $in: ["active", "disabled"] }],
    ["nin", ["banned"], { $nin: ["banned"] }],
    ["gt", 3, { $gt: 3 }],
    ["gte", 3, { $gte: 3 }],
    ["lt", 9, { $lt: 9 }],
    ["lte", 9, { $lte: 9 }],
    ["contains", "ali", { $contains: "ali" }],
    ["containss", "Ali", { $contains: "Ali" }],
    ["startswith", "ai", { $startsWith: "ai" }],
    ["startswiths", "Ai", { $startsWith: "Ai" }],
    ["null", true, { $null: true }],
    ["nnull", true, { $null: false }],
  ] as const)("sends %s as the contract's condition", async (operator, value, expected) => {
    expect(await filterSent([{ field: "status", operator, value }])).toEqual({ status: expected });
  });

  it("wraps a single value given to in as a one-element list", async () => {
    expect(await filterSent([{ field: "id", operator: "in", value: 3 }])).toEqual({
      id: { $in: [3] },
    });
  });

  it("sends a date range (between) as $gte and $lte, leaving out an open end", async () => {
    expect(
      await filterSent([
        { field: "createdAt", operator: "between", value: ["2024-01-01", "2024-01-31"] },
        { field: "lastLoginAt", operator: "between", value: [null, "2024-02-01"] },
      ]),
    ).toEqual({
      createdAt: { $gte: "2024-01-01", $lte: "2024-01-31" },
      lastLoginAt: { $lte: "2024-02-01" },
    });
  });

  it("sends the free-text field q, or $search, as $search", async () => {
    expect(await filterSent([{ field: "q", operator: "contains", value: "aisyah" }])).toEqual({
      $search: "aisyah",
    });
    requests.length = 0;
    expect(await filterSent([{ field: "$search", operator: "eq", value: "ali" }])).toEqual({
      $search: "ali",
    });
  });

  it("sends an or group as $or with each alternative", async () => {
    expect(
      await filterSent([
        {
          operator: "or",
          value: [
            { field: "status", operator: "eq", value: "banned" },
            { field: "isSuperAdmin", operator: "eq", value: true },
          ],
        },
      ]),
    ).toEqual({ $or: [{ status: "banned" }, { isSuperAdmin: true }] });
  });

  it("merges top-level filters and and-groups into one object, joining conditions on a field", async () => {
    expect(
      await filterSent([
        { field: "status", operator: "ne", value: "banned" },
        {
          operator: "and",
          value: [
            { field: "createdAt", operator: "gte", value: "2024-01-01" },
            { field: "createdAt", operator: "lt", value: "2024-02-01" },
          ],
        },
        { field: "q", operator: "contains", value: "ali" },
      ]),
    ).toEqual({
      status: { $ne: "banned" },
      createdAt: { $gte: "2024-01-01", $lt: "2024-02-01" },
      $search: "ali",
    });
  });

  it("combines two or groups into the alternatives of both", async () => {
    expect(
      await filterSent([
        {
          operator: "or",
          value: [
            { field: "status", operator: "eq", value: "active" },
            { field: "status", operator: "eq", value: "disabled" },
          ],
        },
        {
          operator: "or",
          value: [
            { field: "name", operator: "contains", value: "a" },
            { field: "email", operator: "contains", value: "b" },
          ],
        },
      ]),
    ).toEqual({
      $or: [
        { status: "active", name: { $contains: "a" } },
        { status: "active", email: { $contains: "b" } },
        { status: "disabled", name: { $contains: "a" } },
        { status: "disabled", email: { $contains: "b" } },
      ],
    });
  });

  it("leaves cleared filters out and omits the filter parameter when nothing is left", async () => {
    const request = await listRequest({
      filters: [
        { field: "status", operator: "eq", value: undefined },
        { field: "name", operator: "contains", value: "" },
        { field: "email", operator: "contains", value: " \u3000 " },
        { field: "id", operator: "in", value: [] },
        { field: "q", operator: "contains", value: null },
      ],
    });
    expect(new URL(request.url).searchParams.has("filter")).toBe(false);
  });

  it("refuses an operator the contract cannot express instead of dropping it", async () => {
    serveList("administrators");
    await expect(
      dataProvider.getList({
        resource: "administrators",
        filters: [{ field: "email", operator: "endswith", value: ".my" }],
      }),
    ).rejects.toThrow(
      new UnsupportedFilterError(
        'Filter operator "endswith" on "email" is not supported by the aggregation contract',
      ),
    );
    expect(requests).toHaveLength(0);
  });

  it("refuses two different equalities on one field rather than keeping one of them", async () => {
    await expect(
      dataProvider.getList({
        resource: "administrators",
        filters: [
          { field: "status", operator: "eq", value: "active" },
          { field: "status", operator: "eq", value: "banned" },
        ],
      }),
    ).rejects.toThrow(/cannot be combined/);
  });
});

describe("getList: sorting and pagination", () => {
  it("sends sorters as {field: 1|-1} in priority order", async () => {
    const request = await listRequest({
      sorters: [
        { field: "status", order: "asc" },
        { field: "createdAt", order: "desc" },
        { field: "id", order: "desc" },
      ],
    });
    const sort = jsonParam(request, "sort") as Record<string, number>;
    expect(Object.entries(sort)).toEqual([
      ["status", 1],
      ["createdAt", -1],
      ["id", -1],
    ]);
  });

  it("omits sort when there are no sorters", async () => {
    const request = await listRequest({ sorters: [] });
    expect(new URL(request.url).searchParams.has("sort")).toBe(false);
  });

  it("sends the requested page and page size", async () => {
    const request = await listRequest({ pagination: { currentPage: 3, pageSize: 25 } });
    expect(jsonParam(request, "pagination")).toEqual({ page: 3, pageSize: 25 });
  });

  it("defaults to page 1 of 10", async () => {
    expect(jsonParam(await listRequest(), "pagination")).toEqual({ page: 1, pageSize: 10 });
  });

  it.each(["client", "off"] as const)(
    "asks for the first 100 rows when pagination is %s",
    async (mode) => {
      const request = await listRequest({ pagination: { mode, currentPage: 4, pageSize: 10 } });
      expect(jsonParam(request, "pagination")).toEqual({ page: 1, pageSize: 100 });
    },
  );
});

describe("getList: collection and answer", () => {
  it("reads the rows under the collection name and the total from totalCount", async () => {
    serveList("administrators");
    await expect(dataProvider.getList({ resource: "administrators" })).resolves.toEqual({
      data: rows,
      total: 42,
      totalExact: true,
    });
  });

  it("passes on that the server counted only up to the total (totalCountExact: false)", async () => {
    serveList("administrators", {
      totalCount: 10_000,
      administrators: rows,
      totalCountExact: false,
    });
    await expect(dataProvider.getList({ resource: "administrators" })).resolves.toEqual({
      data: rows,
      total: 10_000,
      totalExact: false,
    });
  });

  it("calls the collection named in meta and reads the list key named in meta", async () => {
    serveList("users", { totalCount: 2, pendingUsers: rows });
    const result = await dataProvider.getList({
      resource: "user-approval",
      meta: { collection: "users", listKey: "pendingUsers" },
    });
    expect(new URL(requests[0]!.url).pathname).toBe("/v1/api/users/aggregation");
    expect(result).toEqual({ data: rows, total: 2, totalExact: true });
  });

  it("fails with a typed error when the answer has no list under the key", async () => {
    serveList("administrators", { totalCount: 1, items: rows });
    await expect(dataProvider.getList({ resource: "administrators" })).rejects.toMatchObject({
      name: "ApiError",
      kind: "malformed",
      statusCode: 200,
    });
  });

  it("abandons the request when React Query's signal (in Refine's meta) aborts", async () => {
    server.use(
      mswHttp.get(`${API}/api/administrators/aggregation`, async () => {
        await delay(1000);
        return HttpResponse.json({ totalCount: 0, administrators: [] });
      }),
    );
    const controller = new AbortController();
    const pending = dataProvider.getList({
      resource: "administrators",
      meta: { signal: controller.signal },
    });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "ApiError", kind: "cancelled" });
  });
});
