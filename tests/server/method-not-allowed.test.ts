/**
 * Issue 30, item 4: a wrong method on a fixed path is 405 METHOD_NOT_ALLOWED with an `Allow`
 * header naming the path's own methods, never the answer of a parametric sibling that took the
 * fixed segment for an id (`PATCH /administrators/aggregation` was a 400 "Invalid id" from
 * `PATCH /administrators/:id`). Generated from the OpenAPI document: every fixed path × every
 * method it lacks, with and without a session, changes nothing in the database.
 */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { auth, createTestApp, useSignedInApp } from "./support/app";
import { openApiDocument, operationsOf } from "./support/openapi";

const suite = useSignedInApp();
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number] | "HEAD";

/** Each fixed (parameterless) path of the document with the methods it documents. */
let fixedPaths = new Map<string, Set<string>>();

beforeAll(async () => {
  fixedPaths = new Map();
  for (const { path, method } of operationsOf(await openApiDocument(suite.app))) {
    if (path.includes("{")) continue;
    fixedPaths.set(path, (fixedPaths.get(path) ?? new Set()).add(method));
  }
});

/** What `Allow` must list for a path: its methods, and HEAD where it has GET (Fastify adds it). */
function allowOf(path: string): string[] {
  const methods = fixedPaths.get(path);
  if (!methods) throw new Error(`${path} is not a fixed path of the document`);
  return [...methods, ...(methods.has("GET") ? ["HEAD"] : [])].sort();
}

const missingMethods = (path: string) =>
  METHODS.filter((method) => !allowOf(path).includes(method));

function send(method: Method, url: string, token?: string) {
  const hasBody = method === "POST" || method === "PUT" || method === "PATCH";
  return suite.app.inject({
    method,
    url,
    ...(token ? { headers: auth(token) } : {}),
    ...(hasBody ? { payload: { name: "x", status: "banned", title: "x" } } : {}),
  });
}

async function expectMethodNotAllowed(method: Method, path: string, token?: string) {
  const response = await send(method, path, token);
  const what = `${method} ${path}${token ? " (signed in)" : ""}: ${response.body}`;
  expect(response.statusCode, what).toBe(405);
  const allow = allowOf(path);
  expect(String(response.headers.allow).split(", ").sort(), what).toEqual(allow);
  expect(response.headers["cache-control"], what).toBe("no-store");
  if (method === "HEAD") return; // no body to read
  expect(response.json(), what).toEqual({
    code: "METHOD_NOT_ALLOWED",
    message: expect.stringContaining(`Method ${method} is not allowed on ${path}`),
  });
}

/**
 * A digest of every table's rows: equal before and after means the refused requests changed
 * nothing (no record, audit entry, rate-limit counter or revoked token).
 */
async function databaseDigest(): Promise<Record<string, string>> {
  const db = suite.testDb.database.db;
  const tables = await db.execute<{ name: string }>(sql`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`);
  const digest: Record<string, string> = {};
  for (const { name } of tables.rows) {
    const [row] = (
      await db.execute<{ digest: string }>(sql`
        select count(*) || ':' || md5(coalesce(string_agg(t::text, '|' order by t::text), ''))
          as digest
        from ${sql.identifier(name)} t`)
    ).rows;
    digest[name] = row!.digest;
  }
  return digest;
}

describe("a method a fixed path lacks", () => {
  it("answers 405 with the path's Allow on every fixed path, and changes nothing", async () => {
    expect(fixedPaths.size).toBeGreaterThan(30);
    const before = await databaseDigest();
    let cases = 0;
    for (const path of fixedPaths.keys()) {
      for (const method of missingMethods(path)) {
        await expectMethodNotAllowed(method, path, suite.token);
        await expectMethodNotAllowed(method, path);
        cases += 1;
      }
    }
    expect(cases).toBeGreaterThan(100);
    expect(await databaseDigest()).toEqual(before);
  });

  it("HEAD on a fixed path without GET is 405 too", async () => {
    for (const path of fixedPaths.keys()) {
      if (!allowOf(path).includes("GET")) await expectMethodNotAllowed("HEAD", path, suite.token);
    }
  });

  // The probe's findings (issue 30): each was taken for an id by a parametric sibling.
  it.each([
    ["PATCH", "/v1/api/administrators/aggregation"],
    ["GET", "/v1/api/settlements/run"],
    ["GET", "/v1/api/ucsi-ids/import"],
    ["GET", "/v1/api/help-articles/images"],
    ["PATCH", "/v1/api/help-articles/images"],
    ["GET", "/v1/api/merchant-announcements/images"],
    ["PATCH", "/v1/api/merchant-announcements/images"],
    ["PATCH", "/v1/api/businesses/aggregation"],
    ["PATCH", "/v1/api/parking-lots/aggregation"],
    ["PATCH", "/v1/api/help-articles/aggregation"],
    ["PATCH", "/v1/api/merchant-announcements/aggregation"],
  ] as const)("%s %s is 405, not taken for an id", async (method, path) => {
    await expectMethodNotAllowed(method, path, suite.token);
    const response = await send(method, path, suite.token);
    expect(response.json<{ message: string }>().message).toBe(
      `Method ${method} is not allowed on ${path} (allowed: ${response.headers.allow})`,
    );
  });
});

describe("what stays as it was", () => {
  it("a parametric route still takes its ids, and refuses a bad one as before", async () => {
    const one = await send("GET", "/v1/api/administrators/1", suite.token);
    expect(one.statusCode, one.body).toBe(200);
    const bad = await send("GET", "/v1/api/administrators/abc", suite.token);
    expect(bad.statusCode, bad.body).toBe(400);
  });

  it("a method a parametric path lacks is 405 with that path's methods", async () => {
    const response = await send("DELETE", "/v1/api/administrators/1", suite.token);
    expect(response.statusCode, response.body).toBe(405);
    expect(String(response.headers.allow).split(", ").sort()).toEqual(["GET", "HEAD", "PATCH"]);
    const nested = await send("GET", "/v1/api/users/1/ban", suite.token);
    expect(nested.statusCode, nested.body).toBe(405);
    expect(nested.headers.allow).toBe("PATCH");
  });

  it("an unknown path is 404 whatever the method, with a trailing slash too", async () => {
    for (const method of METHODS) {
      for (const url of ["/v1/api/nothing-here", "/v1/api/administrators/aggregation/"]) {
        const response = await send(method, url, suite.token);
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.json()).toMatchObject({ code: "NOT_FOUND" });
      }
    }
  });

  it("a browser on an allowed origin still gets its preflight, and can read the 405", async () => {
    const origin = "http://console.example.test";
    const app = await createTestApp(suite.testDb, { CORS_ORIGIN: origin });
    try {
      const url = "/v1/api/administrators/aggregation";
      const preflight = await app.inject({
        method: "OPTIONS",
        url,
        headers: { origin, "access-control-request-method": "GET" },
      });
      expect(preflight.statusCode).toBe(204);
      const refused = await app.inject({ method: "PATCH", url, headers: { origin } });
      expect(refused.statusCode, refused.body).toBe(405);
      expect(refused.headers["access-control-allow-origin"]).toBe(origin);
    } finally {
      await app.close();
    }
  });

  it("the documentation's fixed paths answer 405 too", async () => {
    const response = await send("POST", "/v1/docs/json");
    expect(response.statusCode, response.body).toBe(405);
    expect(response.headers.allow).toBe("GET, HEAD");
  });

  it("the fixed path's own method still works", async () => {
    const response = await send("GET", "/v1/api/administrators/aggregation", suite.token);
    expect(response.statusCode, response.body).toBe(200);
  });
});
