import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";

import { clearCurrentAdmin } from "../../../src/providers/current-admin";
import { clearToken } from "../../../src/providers/session";

/** msw serves the API base the console uses by default, on the jsdom page's origin. */
export const API = `${window.location.origin}/v1`;

/**
 * One msw server per test file, plus a log of every request it saw, so tests assert on what
 * actually crossed the wire (URL, headers, body) rather than on what the code meant to send.
 */
export function useApiServer() {
  // Every list asks for its saved views (src/providers/saved-views.ts): none, unless a test says
  // otherwise (server.use).
  const server = setupServer(
    http.get(`${API}/api/saved-views/:module`, () =>
      HttpResponse.json({ views: [], defaultViewId: null }),
    ),
  );
  const requests: Request[] = [];
  server.events.on("request:start", ({ request }) => {
    // A list's saved views are read beside it; tests that speak of them use their own handlers.
    if (new URL(request.url).pathname.startsWith("/v1/api/saved-views/")) return;
    requests.push(request.clone());
  });
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterEach(() => {
    server.resetHandlers();
    requests.length = 0;
    clearToken();
    clearCurrentAdmin();
    localStorage.clear();
  });
  afterAll(() => server.close());
  return { server, requests };
}

/** The decoded JSON of one aggregation query parameter, or undefined when it was left out. */
export function jsonParam(request: Request | undefined, name: string): unknown {
  const raw = request ? new URL(request.url).searchParams.get(name) : null;
  return raw === null ? undefined : JSON.parse(raw);
}
