import { QueryClient } from "@tanstack/react-query";
import { http as mswHttp, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";

import { dataProvider } from "../../src/providers/data";
import { queryClientConfig, retryDelay } from "../../src/providers/query-client";
import { API, useApiServer } from "./support/msw";

const { server, requests } = useApiServer();

/** The console's configuration with the delays shortened, so retries are counted, not waited. */
function quickClient(): QueryClient {
  const queries = queryClientConfig.defaultOptions?.queries;
  return new QueryClient({ defaultOptions: { queries: { ...queries, retryDelay: 1 } } });
}

async function fetchAdmin(client: QueryClient) {
  return client
    .fetchQuery({
      queryKey: ["administrators", 7],
      queryFn: () => dataProvider.getOne({ resource: "administrators", id: 7 }),
    })
    .catch((e: unknown) => e);
}

describe("query retries", () => {
  it("does not repeat a 4xx: the server has answered", async () => {
    server.use(
      mswHttp.get(`${API}/api/administrators/7`, () =>
        HttpResponse.json(
          { code: "NOT_FOUND", message: "Administrator not found" },
          { status: 404 },
        ),
      ),
    );
    await fetchAdmin(quickClient());
    expect(requests).toHaveLength(1);
  });

  it("retries a 5xx three times before giving up", async () => {
    server.use(
      mswHttp.get(`${API}/api/administrators/7`, () =>
        HttpResponse.json({ code: "INTERNAL_ERROR", message: "boom" }, { status: 500 }),
      ),
    );
    const error = await fetchAdmin(quickClient());
    expect(requests).toHaveLength(4);
    expect(error).toMatchObject({ statusCode: 500 });
  });

  it("retries when there is no answer and succeeds once the server is back", async () => {
    let calls = 0;
    server.use(
      mswHttp.get(`${API}/api/administrators/7`, () =>
        ++calls < 3 ? HttpResponse.error() : HttpResponse.json({ id: 7 }),
      ),
    );
    await expect(fetchAdmin(quickClient())).resolves.toEqual({ data: { id: 7 } });
    expect(requests).toHaveLength(3);
  });

  it("waits exponentially longer between attempts, never more than 30 s", () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(retryDelay)).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000,
    ]);
    expect(queryClientConfig.defaultOptions?.queries?.retryDelay).toBe(retryDelay);
  });

  it("keeps data 5 minutes and treats it as stale at once; mutations are never repeated", () => {
    const { queries, mutations } = queryClientConfig.defaultOptions ?? {};
    expect(queries?.gcTime).toBe(300_000);
    expect(queries?.staleTime).toBe(0);
    expect(mutations?.retry).toBe(false);
  });
});
