import { delay, http as mswHttp, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";

import { dataProvider } from "../../src/providers/data";
import { setToken } from "../../src/providers/session";
import { anAdmin, aToken } from "./support/fixtures";
import { API, jsonParam, useApiServer } from "./support/msw";

const { server, requests } = useApiServer();

const admin = anAdmin();
const adminsMeta = { collection: "administrators" };

describe("record calls on /api/{collection}/{id}", () => {
  it("reads one record from /api/{collection}/{id}, the collection taken from meta", async () => {
    server.use(mswHttp.get(`${API}/api/administrators/7`, () => HttpResponse.json(admin)));
    const result = await dataProvider.getOne({ resource: "admin-mgmt", id: 7, meta: adminsMeta });
    expect(result).toEqual({ data: admin });
    expect(new URL(requests[0]!.url).pathname).toBe("/v1/api/administrators/7");
  });

  it("uses the resource name as the collection when meta names none", async () => {
    server.use(mswHttp.get(`${API}/api/administrators/7`, () => HttpResponse.json(admin)));
    await dataProvider.getOne({ resource: "administrators", id: 7 });
    expect(new URL(requests[0]!.url).pathname).toBe("/v1/api/administrators/7");
  });

  it("creates with POST /api/{collection} and the variables as JSON body", async () => {
    server.use(
      mswHttp.post(`${API}/api/administrators`, () => HttpResponse.json(admin, { status: 201 })),
    );
    const variables = {
      name: "Aisyah",
      email: "a@ucsi.example",
      password: "Secret123",
      permissions: [8],
    };
    const result = await dataProvider.create({
      resource: "admin-mgmt",
      variables,
      meta: adminsMeta,
    });
    expect(result).toEqual({ data: admin });
    expect(requests[0]!.method).toBe("POST");
    expect(await requests[0]!.json()).toEqual(variables);
  });

  it("updates with PATCH /api/{collection}/{id} and only the changed fields", async () => {
    server.use(mswHttp.patch(`${API}/api/administrators/7`, () => HttpResponse.json(admin)));
    await dataProvider.update({
      resource: "admin-mgmt",
      id: 7,
      variables: { name: "Aisyah Rahman" },
      meta: adminsMeta,
    });
    expect(requests[0]!.method).toBe("PATCH");
    expect(new URL(requests[0]!.url).pathname).toBe("/v1/api/administrators/7");
    expect(await requests[0]!.json()).toEqual({ name: "Aisyah Rahman" });
  });

  it("updates with the method meta names (PUT) and sends meta's headers", async () => {
    server.use(mswHttp.put(`${API}/api/administrators/7`, () => HttpResponse.json(admin)));
    const result = await dataProvider.update({
      resource: "admin-mgmt",
      id: 7,
      variables: { name: "Aisyah Rahman" },
      meta: { ...adminsMeta, method: "put", headers: { "X-Reason": "audit" } },
    });
    expect(result).toEqual({ data: admin });
    expect(requests[0]!.method).toBe("PUT");
    expect(requests[0]!.headers.get("x-reason")).toBe("audit");
    expect(await requests[0]!.json()).toEqual({ name: "Aisyah Rahman" });
  });

  it("deletes with DELETE /api/{collection}/{id} and answers the body", async () => {
    server.use(mswHttp.delete(`${API}/api/administrators/7`, () => HttpResponse.json(admin)));
    const result = await dataProvider.deleteOne({
      resource: "admin-mgmt",
      id: 7,
      meta: adminsMeta,
    });
    expect(result).toEqual({ data: admin });
    expect(requests[0]!.method).toBe("DELETE");
    expect(new URL(requests[0]!.url).pathname).toBe("/v1/api/administrators/7");
    expect(await requests[0]!.text()).toBe("");
  });

  it("sends a delete's variables as its JSON body", async () => {
    server.use(mswHttp.delete(`${API}/api/administrators/7`, () => HttpResponse.json(admin)));
    await dataProvider.deleteOne({
      resource: "admin-mgmt",
      id: 7,
      variables: { remark: "left the campus" },
      meta: adminsMeta,
    });
    expect(await requests[0]!.json()).toEqual({ remark: "left the campus" });
  });

  it("fails a record call with the server's error, sorted", async () => {
    server.use(
      mswHttp.patch(`${API}/api/administrators/7`, () =>
        HttpResponse.json(
          { code: "EMAIL_TAKEN", message: "The e-mail is already used" },
          { status: 409 },
        ),
      ),
    );
    await expect(
      dataProvider.update({
        resource: "admin-mgmt",
        id: 7,
        variables: { email: "taken@ucsi.example" },
        meta: adminsMeta,
      }),
    ).rejects.toMatchObject({
      name: "ApiError",
      kind: "coded",
      code: "EMAIL_TAKEN",
      statusCode: 409,
      method: "patch",
    });
  });

  it("reads many records by id through the aggregation list with an $in filter", async () => {
    server.use(
      mswHttp.get(`${API}/api/administrators/aggregation`, () =>
        HttpResponse.json({ totalCount: 2, administrators: [admin, { ...admin, id: 9 }] }),
      ),
    );
    const result = await dataProvider.getMany!({
      resource: "admin-mgmt",
      ids: [7, 9],
      meta: adminsMeta,
    });
    expect(result.data.map((a) => a.id)).toEqual([7, 9]);
    expect(jsonParam(requests[0], "filter")).toEqual({ id: { $in: [7, 9] } });
    expect(jsonParam(requests[0], "pagination")).toEqual({ page: 1, pageSize: 2 });
  });

  it("names the API base as the API URL", () => {
    expect(dataProvider.getApiUrl()).toBe("/v1");
  });
});

describe("custom calls", () => {
  it("posts a /user-mgmt payload relative to the API base, snake_case kept", async () => {
    server.use(
      mswHttp.post(`${API}/user-mgmt/check-email-available`, () =>
        HttpResponse.json({ available: false }),
      ),
    );
    const result = await dataProvider.custom!({
      url: "/user-mgmt/check-email-available",
      method: "post",
      payload: { email: "a@ucsi.example", exclude_id: 7 },
    });
    expect(result).toEqual({ data: { available: false } });
    expect(await requests[0]!.json()).toEqual({ email: "a@ucsi.example", exclude_id: 7 });
  });

  it("accepts a URL that already starts with the API base (Refine's useApiUrl convention)", async () => {
    server.use(
      mswHttp.post(`${API}/user-mgmt/change-admin-permission`, () => HttpResponse.json(admin)),
    );
    await dataProvider.custom!({
      url: `${dataProvider.getApiUrl()}/user-mgmt/change-admin-permission`,
      method: "post",
      payload: { admin_id: 7, permission_codes: [0, 8] },
    });
    expect(new URL(requests[0]!.url).pathname).toBe("/v1/user-mgmt/change-admin-permission");
  });

  it("sends query values as query parameters and filters and sorters in the contract's form", async () => {
    server.use(mswHttp.get(`${API}/api/users/dormant`, () => HttpResponse.json({ totalCount: 0 })));
    await dataProvider.custom!({
      url: "/api/users/dormant",
      method: "get",
      query: { role: "rider" },
      filters: [{ field: "q", operator: "contains", value: "ali" }],
      sorters: [{ field: "lastActiveAt", order: "asc" }],
    });
    const url = new URL(requests[0]!.url);
    expect(url.searchParams.get("role")).toBe("rider");
    expect(jsonParam(requests[0], "filter")).toEqual({ $search: "ali" });
    expect(jsonParam(requests[0], "sort")).toEqual({ lastActiveAt: 1 });
    expect(url.searchParams.has("pagination")).toBe(false);
  });
});

describe("custom calls: bodies, headers and abort", () => {
  it("sends a FormData payload as multipart with the caller's headers", async () => {
    server.use(mswHttp.post(`${API}/user-mgmt/edit-rider-details`, () => HttpResponse.json({})));
    const form = new FormData();
    form.append("account_number", "R-0001");
    await dataProvider.custom!({
      url: "/user-mgmt/edit-rider-details",
      method: "post",
      payload: form,
      headers: { "X-Client": "console" },
    });
    const sent = requests[0]!;
    expect(sent.headers.get("content-type")).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.headers.get("x-client")).toBe("console");
    expect((await sent.formData()).get("account_number")).toBe("R-0001");
  });

  it("abandons the call when React Query's signal (in meta) aborts", async () => {
    server.use(
      mswHttp.get(`${API}/api/dashboard/summary`, async () => {
        await delay(1000);
        return HttpResponse.json({});
      }),
    );
    const controller = new AbortController();
    const pending = dataProvider.custom!({
      url: "/api/dashboard/summary",
      method: "get",
      meta: { signal: controller.signal },
    });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "ApiError", kind: "cancelled" });
  });
});

describe("headers every call carries", () => {
  it("sends the raw jwt cookie as Authorization and the stored language as Accept-Language", async () => {
    const token = aToken();
    setToken(token);
    localStorage.setItem("language", "cn-ZH");
    server.use(mswHttp.get(`${API}/api/administrators/7`, () => HttpResponse.json(admin)));
    await dataProvider.getOne({ resource: "administrators", id: 7 });
    expect(requests[0]!.headers.get("authorization")).toBe(token);
    expect(requests[0]!.headers.get("accept-language")).toBe("cn-ZH");
  });

  it("sends no Authorization without a session and en-US when no language is stored", async () => {
    server.use(mswHttp.get(`${API}/api/administrators/7`, () => HttpResponse.json(admin)));
    await dataProvider.getOne({ resource: "administrators", id: 7 });
    expect(requests[0]!.headers.has("authorization")).toBe(false);
    expect(requests[0]!.headers.get("accept-language")).toBe("en-US");
  });

  it("falls back to en-US when the stored language is not one the product speaks", async () => {
    localStorage.setItem("language", "fr-FR");
    server.use(mswHttp.get(`${API}/api/administrators/7`, () => HttpResponse.json(admin)));
    await dataProvider.getOne({ resource: "administrators", id: 7 });
    expect(requests[0]!.headers.get("accept-language")).toBe("en-US");
  });
});
