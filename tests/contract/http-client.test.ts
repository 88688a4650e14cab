/**
 * The console's own http client against msw: what crosses the wire (URL and query string,
 * method, headers, body) and what the caller gets back (decoded body, Blob, ApiError), on both
 * of its transports (fetch, and XMLHttpRequest when an upload's progress is shown).
 */
import { delay, http as mswHttp, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";

import { ApiError } from "../../src/providers/api-error";
import { encodeAggregationQuery } from "../../src/providers/aggregation-encoder";
import { http, type UploadProgress } from "../../src/providers/http";
import { setToken } from "../../src/providers/session";
import { aToken } from "./support/fixtures";
import { API, useApiServer } from "./support/msw";

const { server, requests } = useApiServer();

const PROBE = `${API}/api/probe`;

function rejection(promise: Promise<unknown>): Promise<ApiError> {
  return promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(ApiError);
      return error as ApiError;
    },
  );
}

describe("answers", () => {
  it("hands over a JSON body decoded, with the status and headers", async () => {
    server.use(
      mswHttp.get(PROBE, () =>
        HttpResponse.json({ id: 7, tags: ["a"] }, { status: 201, headers: { "X-Total": "1" } }),
      ),
    );
    const response = await http.get("/api/probe");
    expect(response.data).toEqual({ id: 7, tags: ["a"] });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-total")).toBe("1");
  });

  it("hands over a plain-text body as the text", async () => {
    server.use(mswHttp.get(PROBE, () => HttpResponse.text("pong")));
    expect((await http.get("/api/probe")).data).toBe("pong");
  });

  it("hands over an empty body (204) as undefined", async () => {
    server.use(mswHttp.post(PROBE, () => new HttpResponse(null, { status: 204 })));
    const response = await http.post("/api/probe");
    expect(response.status).toBe(204);
    expect(response.data).toBeUndefined();
  });

  it("rejects a 2xx whose JSON body does not parse as malformed", async () => {
    server.use(
      mswHttp.get(
        PROBE,
        () =>
          new HttpResponse('{"rows": [', {
            status: 200,
            headers: { "Content-Type": "application/json" },
          }),
      ),
    );
    const error = await rejection(http.get("/api/probe"));
    expect(error).toMatchObject({ kind: "malformed", statusCode: 200, method: "get" });
  });

  it("sorts an error answer by its body and records the method", async () => {
    server.use(
      mswHttp.delete(PROBE, () =>
        HttpResponse.json({ code: "NOT_FOUND", message: "No such thing" }, { status: 404 }),
      ),
    );
    const error = await rejection(http.delete("/api/probe"));
    expect(error).toMatchObject({ kind: "coded", code: "NOT_FOUND", method: "delete" });
  });
});

describe("no answer", () => {
  it("is cancelled when the caller's signal aborts mid-request", async () => {
    server.use(
      mswHttp.get(PROBE, async () => {
        await delay(1000);
        return HttpResponse.json({});
      }),
    );
    const controller = new AbortController();
    const pending = http.get("/api/probe", { signal: controller.signal });
    controller.abort();
    expect(await rejection(pending)).toMatchObject({ kind: "cancelled" });
  });

  it("is cancelled, and nothing is sent, when the signal has already aborted", async () => {
    server.use(mswHttp.get(PROBE, () => HttpResponse.json({})));
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(http.get("/api/probe", { signal: controller.signal }));
    expect(error.kind).toBe("cancelled");
    expect(requests).toHaveLength(0);
  });

  it("is a network failure when the connection fails", async () => {
    server.use(mswHttp.post(PROBE, () => HttpResponse.error()));
    const error = await rejection(http.post("/api/probe", { a: 1 }));
    expect(error).toMatchObject({
      kind: "network",
      method: "post",
      message: "Unexpected error occured when calling api. Please contact admin.",
    });
  });
});

describe("requests", () => {
  it("sends methods in capitals, a plain object as JSON and the default Accept", async () => {
    server.use(mswHttp.patch(PROBE, () => HttpResponse.json({ ok: true })));
    await http.patch("/api/probe", { status: "disabled", ids: [1, 2] });
    const sent = requests[0]!;
    expect(sent.method).toBe("PATCH");
    expect(sent.headers.get("content-type")).toBe("application/json");
    expect(sent.headers.get("accept")).toBe("application/json, text/plain, */*");
    expect(await sent.json()).toEqual({ status: "disabled", ids: [1, 2] });
  });

  it("sends FormData as multipart, the file included", async () => {
    server.use(mswHttp.post(PROBE, () => HttpResponse.json({ ok: true })));
    const form = new FormData();
    form.append("note", "hello");
    form.append("file", new File(["abc"], "a.txt", { type: "text/plain" }));
    await http.post("/api/probe", form);
    const sent = requests[0]!;
    expect(sent.headers.get("content-type")).toMatch(/^multipart\/form-data; boundary=/);
    const received = await sent.formData();
    expect(received.get("note")).toBe("hello");
    // jsdom's File crosses into the platform's FormData as a part (its bytes do not survive the
    // test environment's conversion, on either transport).
    expect(received.get("file")).not.toBeNull();
  });

  it("adds the caller's headers, but Authorization and Accept-Language stay the session's", async () => {
    const token = aToken();
    setToken(token);
    server.use(mswHttp.get(PROBE, () => HttpResponse.json({})));
    await http.get("/api/probe", {
      headers: { "X-Trace": "t-1", Authorization: "forged", "Accept-Language": "fr" },
    });
    const sent = requests[0]!;
    expect(sent.headers.get("x-trace")).toBe("t-1");
    expect(sent.headers.get("authorization")).toBe(token);
    expect(sent.headers.get("accept-language")).toBe("en-US");
  });

  it("writes query parameters byte for byte as the console always has (axios's rules)", async () => {
    server.use(mswHttp.get(PROBE, () => HttpResponse.json({})));
    await http.get("/api/probe", {
      params: {
        filter: JSON.stringify({ name: { $contains: "a b,c:d/é&?" }, $or: [{ x: [1, 2] }] }),
        sort: JSON.stringify({ createdAt: -1 }),
        pagination: JSON.stringify({ page: 2, pageSize: 20 }),
        page: 2,
        vip: true,
        off: false,
        zero: 0,
        empty: "",
        since: new Date("2026-01-02T03:04:05.000Z"),
        role: null,
        gone: undefined,
        ids: [1, null, "b c"],
        range: { from: 1, to: [3, 4], deep: { x: "y" } },
        rows: [{ a: 1 }, { a: 2 }],
        "odd key!": "it's (fine)~*",
      },
    });
    // The string axios 1.21's getUri printed for the same parameters, as the URL parser (the
    // browser's too) sends it: it writes ' as %27 in a query, whichever client built it.
    const axiosQuery =
      "?filter=%7B%22name%22:%7B%22$contains%22:%22a+b,c:d%2F%C3%A9%26%3F%22%7D,%22$or%22:%5B%7B%22x%22:%5B1,2%5D%7D%5D%7D" +
      "&sort=%7B%22createdAt%22:-1%7D&pagination=%7B%22page%22:2,%22pageSize%22:20%7D" +
      "&page=2&vip=true&off=false&zero=0&empty=&since=2026-01-02T03:04:05.000Z" +
      "&ids%5B%5D=1&ids%5B%5D=b+c&range%5Bfrom%5D=1&range%5Bto%5D%5B0%5D=3&range%5Bto%5D%5B1%5D=4" +
      "&range%5Bdeep%5D%5Bx%5D=y&rows%5B0%5D%5Ba%5D=1&rows%5B1%5D%5Ba%5D=2&odd+key!=it's+(fine)~*";
    expect(new URL(requests[0]!.url).search).toBe(new URL(`${API}${axiosQuery}`).search);
  });

  it("delivers the aggregation parameters intact and appends to a path's own query", async () => {
    server.use(mswHttp.get(PROBE, () => HttpResponse.json({})));
    const params = encodeAggregationQuery({
      filters: [
        { field: "q", operator: "contains", value: "Tan & Co, 50% off" },
        { field: "status", operator: "in", value: ["active", "banned"] },
      ],
      sorters: [{ field: "createdAt", order: "desc" }],
      pagination: { currentPage: 3, pageSize: 25 },
    });
    await http.get("/api/probe?view=archived", { params });
    const url = new URL(requests[0]!.url);
    expect(url.pathname).toBe("/v1/api/probe");
    expect(url.searchParams.get("view")).toBe("archived");
    expect(Object.fromEntries([...url.searchParams].filter(([name]) => name !== "view"))).toEqual(
      params,
    );
  });
});

describe("downloads", () => {
  it("hands over a successful body as a Blob of the bytes sent", async () => {
    server.use(
      mswHttp.get(
        PROBE,
        () => new HttpResponse("%PDF-1.4 ✓", { headers: { "Content-Type": "application/pdf" } }),
      ),
    );
    const response = await http.get<Blob>("/api/probe", { responseType: "blob" });
    expect(response.data.type).toBe("application/pdf");
    expect(await response.data.text()).toBe("%PDF-1.4 ✓");
  });

  it("still reads a failed download's error body", async () => {
    server.use(
      mswHttp.get(PROBE, () =>
        HttpResponse.json({ code: "NOT_FOUND", message: "No such invoice" }, { status: 404 }),
      ),
    );
    const error = await rejection(http.get("/api/probe", { responseType: "blob" }));
    expect(error).toMatchObject({ kind: "coded", code: "NOT_FOUND", statusCode: 404 });
  });
});

describe("uploads with progress (XMLHttpRequest)", () => {
  const upload = (onUploadProgress: (progress: UploadProgress) => void, signal?: AbortSignal) => {
    const form = new FormData();
    form.append("dryRun", "true");
    form.append("file", new File(["ucsi_id,type\r\n1,student\r\n"], "ids.csv"));
    return http.post<{ rows: number }>("/api/probe", form, { onUploadProgress, signal });
  };

  it("reports the body's progress to the end and decodes the answer", async () => {
    const token = aToken();
    setToken(token);
    server.use(mswHttp.post(PROBE, () => HttpResponse.json({ rows: 1 })));
    const progress: UploadProgress[] = [];
    const response = await upload((p) => progress.push(p));
    expect(response).toMatchObject({ status: 200, data: { rows: 1 } });
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    expect(progress.length).toBeGreaterThan(0);
    const last = progress.at(-1)!;
    expect(last.total).toBeGreaterThan(0);
    expect(last.loaded).toBe(last.total);
    const sent = requests[0]!;
    expect(sent.headers.get("authorization")).toBe(token);
    expect(sent.headers.get("accept-language")).toBe("en-US");
    expect((await sent.formData()).get("dryRun")).toBe("true");
  });

  it("sorts an error answer as fetch does", async () => {
    server.use(
      mswHttp.post(PROBE, () =>
        HttpResponse.json(
          { code: "IMPORT_REJECTED", message: "Nothing was imported", data: { rows: [] } },
          { status: 400 },
        ),
      ),
    );
    const error = await rejection(upload(() => undefined));
    expect(error).toMatchObject({ kind: "coded", code: "IMPORT_REJECTED", method: "post" });
    expect(error.data).toEqual({ rows: [] });
  });

  it("is cancelled when the caller's signal aborts", async () => {
    server.use(
      mswHttp.post(PROBE, async () => {
        await delay(1000);
        return HttpResponse.json({ rows: 1 });
      }),
    );
    const controller = new AbortController();
    const pending = upload(() => undefined, controller.signal);
    controller.abort();
    expect(await rejection(pending)).toMatchObject({ kind: "cancelled" });
  });

  it("is a network failure when the connection fails", async () => {
    server.use(mswHttp.post(PROBE, () => HttpResponse.error()));
    expect(await rejection(upload(() => undefined))).toMatchObject({ kind: "network" });
  });
});
