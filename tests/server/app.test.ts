import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { buildApp, type App } from "../../server/app";
import { auth, createTestApp, DEMO, login } from "./support/app";
import { createTestDatabase, type TestDatabase } from "./support/database";

let testDb: TestDatabase;
let app: App;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb);
});

afterAll(async () => {
  await app?.close();
  await testDb?.destroy();
});

describe("the API shell", () => {
  it("GET /v1/health answers ok", async () => {
    const response = await app.inject({ url: "/v1/health" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok" });
  });

  it("refuses a query parameter on a route that declares none, rather than ignoring it", async () => {
    // Found by the OpenAPI fuzz: `?anything=…` was silently dropped on such routes.
    const token = (await login(app, DEMO.superAdmin)).token;
    for (const url of ["/v1/health?verbose=1", "/v1/api/account/admin?fields=all"]) {
      const response = await app.inject({ url, headers: auth(token) });
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toMatchObject({ code: "VALIDATION_ERROR" });
      expect(response.json<{ message: string }>().message).toMatch(/verbose|fields/);
    }
    const document = (await app.inject({ url: "/v1/docs/json" })).json();
    expect(Object.keys(document.paths["/v1/health"].get.responses)).toContain("400");
  });

  it("answers unknown /v1 routes with a JSON 404", async () => {
    for (const method of ["GET", "POST", "DELETE"] as const) {
      const response = await app.inject({ method, url: "/v1/api/nothing-here?x=1" });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        code: "NOT_FOUND",
        message: `Route ${method} /v1/api/nothing-here not found`,
      });
    }
  });

  it("sends security headers, with a CSP the console can live with", async () => {
    const response = await app.inject({ url: "/v1/health" });
    const csp = String(response.headers["content-security-policy"]);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("img-src 'self' data:");
    expect(csp).not.toContain("upgrade-insecure-requests");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("publishes the OpenAPI document and the Swagger UI under /v1/docs", async () => {
    const json = await app.inject({ url: "/v1/docs/json" });
    expect(json.statusCode).toBe(200);
    const document = json.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        "/v1/api/auth/login",
        "/v1/api/administrators/aggregation",
        "/v1/api/administrators/{id}",
        "/v1/user-mgmt/change-admin-permission",
      ]),
    );
    expect(document.components.schemas.AdminDto.properties).toHaveProperty("permissions");
    const ui = await app.inject({ url: "/v1/docs/" });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers["content-type"]).toContain("text/html");
  });
});

describe("malformed requests", () => {
  let token: string;
  beforeAll(async () => {
    token = (await login(app, DEMO.superAdmin)).token;
  });

  it("400 for a body that is not JSON, without internals", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/v1/user-mgmt/check-email-available",
      headers: { ...auth(token), "content-type": "application/json" },
      payload: "{not json",
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json()).sort()).toEqual(["message"]);
    expect(response.body).not.toMatch(/at .*\.js|node_modules/);
  });

  it("413 for a body over the limit", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/v1/user-mgmt/check-email-available",
      headers: { ...auth(token), "content-type": "application/json" },
      payload: JSON.stringify({ email: "a".repeat(2 * 1024 * 1024) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toHaveProperty("message");
  });

  it("415 for a body that is not JSON at all", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/v1/user-mgmt/check-email-available",
      headers: { ...auth(token), "content-type": "text/plain" },
      payload: "hello",
    });
    expect(response.statusCode).toBe(415);
  });
});

describe("logging", () => {
  it("writes JSON lines that never contain a password or a token", async () => {
    const lines: string[] = [];
    const logged = await buildApp({
      config: testDb.config({ LOG_LEVEL: "info" }),
      database: testDb.database,
      distDir: join(testDb.dataDir, "none"),
      logStream: { write: (line) => lines.push(line) },
    });
    try {
      const { token } = await login(logged, DEMO.finance);
      await logged.inject({ url: "/v1/api/account/admin", headers: auth(token) });
      await logged.inject({
        method: "POST",
        url: "/v1/api/auth/login",
        payload: { email: DEMO.finance.email, password: "Wrong#Secret99" },
      });
      expect(lines.length).toBeGreaterThan(3);
      for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
      const all = lines.join("\n");
      expect(all).toContain("/v1/api/account/admin");
      expect(all).not.toContain(DEMO.finance.password);
      expect(all).not.toContain("Wrong#Secret99");
      expect(all).not.toContain(token);
    } finally {
      await logged.close();
    }
  });
});

describe("CORS", () => {
  it("allows only the configured origins", async () => {
    const cors = await createTestApp(testDb, {
      CORS_ORIGIN: "https://console.example, https://admin.example",
    });
    try {
      const preflight = (origin: string) =>
        cors.inject({
          method: "OPTIONS",
          url: "/v1/api/account/admin",
          headers: {
            origin,
            "access-control-request-method": "GET",
            "access-control-request-headers": "authorization",
          },
        });
      const allowed = await preflight("https://admin.example");
      expect(allowed.headers["access-control-allow-origin"]).toBe("https://admin.example");
      // The console's own headers too: a change's reason, how long its user has been away.
      const headers = String(allowed.headers["access-control-allow-headers"]).toLowerCase();
      for (const header of ["authorization", "x-change-reason", "x-idle-seconds"]) {
        expect(headers).toContain(header);
      }
      const other = await preflight("https://evil.example");
      expect(other.headers["access-control-allow-origin"]).toBeUndefined();
    } finally {
      await cors.close();
    }
  });
});

describe("the built console", () => {
  let withConsole: App;
  beforeAll(async () => {
    const dist = join(testDb.dataDir, "dist");
    await mkdir(join(dist, "assets"), { recursive: true });
    await writeFile(join(dist, "index.html"), "<!doctype html><title>console</title>");
    await writeFile(join(dist, "assets", "index-abc123.js"), "console.log('hi')");
    withConsole = await createTestApp(testDb, {}, { distDir: dist });
  });
  afterAll(async () => {
    await withConsole?.close();
  });

  it("serves index.html at / and for client-side routes", async () => {
    for (const url of ["/", "/dashboard", "/manage-admin/3/edit?tab=1", "/admin-mgmt"]) {
      const response = await withConsole.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers["content-type"]).toContain("text/html");
      expect(response.body).toContain("<title>console</title>");
      expect(response.headers["cache-control"]).toBe("no-cache");
    }
  });

  it("serves fingerprinted assets with a long cache lifetime", async () => {
    const response = await withConsole.inject({ url: "/assets/index-abc123.js" });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe("console.log('hi')");
    expect(response.headers["cache-control"]).toContain("immutable");
  });

  it("keeps /v1 answers as JSON", async () => {
    const response = await withConsole.inject({ url: "/v1/unknown" });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe("NOT_FOUND");
    expect((await withConsole.inject({ url: "/v1/health" })).json()).toEqual({ status: "ok" });
  });

  it("does not fall back for other methods", async () => {
    const response = await withConsole.inject({ method: "POST", url: "/dashboard" });
    expect(response.statusCode).toBe(404);
  });
});

const INLINE_SCRIPT = 'document.documentElement.lang="en"';

describe("a build with a console page", () => {
  let withConsolePage: App;
  beforeAll(async () => {
    const dist = join(testDb.dataDir, "dist-console-page");
    await mkdir(dist, { recursive: true });
    await writeFile(
      join(dist, "index.html"),
      `<!doctype html><title>calculator</title><script>${INLINE_SCRIPT}</script>`,
    );
    await writeFile(join(dist, "console.html"), "<!doctype html><title>console</title>");
    withConsolePage = await createTestApp(testDb, {}, { distDir: dist });
  });
  afterAll(async () => {
    await withConsolePage?.close();
  });

  it("serves index.html at / and console.html for the console's routes", async () => {
    expect((await withConsolePage.inject({ url: "/" })).body).toContain(
      "<title>calculator</title>",
    );
    for (const url of ["/login", "/dashboard", "/manage-admin/3/edit?tab=1"]) {
      const response = await withConsolePage.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers["content-type"]).toContain("text/html");
      expect(response.body, url).toContain("<title>console</title>");
    }
  });

  it("allows the page's inline script by its hash, and no other", async () => {
    const hash = createHash("sha256").update(INLINE_SCRIPT).digest("base64");
    const policy = String(
      (await withConsolePage.inject({ url: "/" })).headers["content-security-policy"],
    );
    const scripts = /script-src ([^;]*)/.exec(policy)?.[1];
    expect(scripts).toContain(`'sha256-${hash}'`);
    expect(scripts).not.toContain("'unsafe-inline'");
  });
});
