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
  const server = setupServer();
  const requests: Request[] = [];
  server.events.on("request:start", ({ request }) => {
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
