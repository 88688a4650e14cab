/**
 * Input the API refuses with a clear 400 instead of a 500 or a silent reinterpretation, the
 * answers' caching, 405 for a known path's unknown method, and an OpenAPI document that says what
 * the server does.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { administrators, changeRequests } from "../../server/db/schema";
import { auth, useSignedInApp } from "./support/app";

const suite = useSignedInApp();

const NUL = "\u0000";

async function expectSignedInRequestWorks() {
  const response = await suite.app.inject({
    url: "/v1/api/account/admin",
    headers: auth(suite.token),
  });
  expect(response.statusCode, response.body).toBe(200);
}

type Call = { method: "GET" | "POST" | "PATCH"; url: string; payload?: object };
const send = (call: Call) =>
  suite.app.inject({
    method: call.method,
    url: call.url,
    payload: call.payload,
    headers: auth(suite.token),
  });

describe("control characters in text inputs", () => {
  const calls: Array<[string, Call]> = [
    [
      "an administrator's name",
      {
        method: "POST",
        url: "/v1/api/administrators",
        payload: {
          name: `A${NUL}B`,
          email: "nul.name@wallet.example",
          password: "Correct#Horse1",
          permissions: [],
        },
      },
    ],
    [
      "the account name",
      { method: "PATCH", url: "/v1/api/account/admin", payload: { name: `Me${NUL}` } },
    ],
    [
      "a ban remark",
      {
        method: "POST",
        url: "/v1/user-mgmt/ban-user",
        payload: { account_number: "S1000001", ban: true, remark: `bad${NUL}` },
      },
    ],
    [
      "a user URL",
      { method: "PATCH", url: "/v1/api/users/1/url", payload: { url: `https://a.example/${NUL}` } },
    ],
    [
      "the account_number of rider-document",
      {
        method: "GET",
        url: `/v1/user-mgmt/rider-document?account_number=R%00&document_id=${"a".repeat(32)}`,
      },
    ],
    [
      "the account_number of rider-attendance",
      {
        method: "GET",
        url: "/v1/user-mgmt/rider-attendance?account_number=R%001&start_date=2026-01-01&end_date=2026-01-31",
      },
    ],
    [
      "a login e-mail",
      {
        method: "POST",
        url: "/v1/api/auth/login",
        payload: { email: `a${NUL}@x.example`, password: "x" },
      },
    ],
  ];

  it.each(calls)(
    "400 for a NUL byte in %s, and the next signed-in request works",
    async (_name, call) => {
      const db = suite.testDb.database.db;
      const requests = (await db.select().from(changeRequests)).length;
      const response = await send(call);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({
        code: "VALIDATION_ERROR",
        message: expect.stringMatching(/control characters.*U\+0000/),
      });
      // Refused before four eyes' dry run: no administrator, no change request waiting for one.
      expect(await db.select().from(changeRequests)).toHaveLength(requests);
      const email = (call.payload as { email?: unknown } | undefined)?.email;
      if (call.url === "/v1/api/administrators" && typeof email === "string") {
        expect(
          await db.select().from(administrators).where(eq(administrators.email, email)),
        ).toHaveLength(0);
      }
      await expectSignedInRequestWorks();
    },
  );

  it.each([
    ["only zero-width characters", "\u200b\u200c\u200d", /visible characters/],
    ["a right-to-left override", "Ali\u202ecilA", /bidirectional/],
    ["a line separator", "Ali\u2028Baba", /line or paragraph separators/],
    ["a vertical tab", "Ali\u000bBaba", /control characters/],
  ])("400 for an administrator name made of %s", async (_name, name, reason) => {
    const response = await send({
      method: "PATCH",
      url: "/v1/api/account/admin",
      payload: { name },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toMatch(/^Invalid name: Text /);
    expect(response.json().message).toMatch(reason);
  });

  it("a remark may hold line breaks and tabs, but no carriage return", async () => {
    const ok = await send({
      method: "POST",
      url: "/v1/user-mgmt/ban-user",
      payload: { account_number: "NO-SUCH-ACCOUNT", ban: true, remark: "line one\n\tline two" },
    });
    expect(ok.statusCode, ok.body).toBe(404); // valid input, unknown account
    const cr = await send({
      method: "POST",
      url: "/v1/user-mgmt/ban-user",
      payload: { account_number: "NO-SUCH-ACCOUNT", ban: true, remark: "line one\r\nline two" },
    });
    expect(cr.statusCode, cr.body).toBe(400);
    expect(cr.json().message).toMatch(/^Invalid remark: .*U\+000D/);
  });

  it.each([
    ["a backslash", "https:\\\\evil.example/"],
    ["a CR/LF", "https://a.example/\r\nSet-Cookie: x=1"],
    ["a space", "https://a.example/a b"],
  ])("400 for a user URL holding %s", async (_name, url) => {
    const response = await send({ method: "PATCH", url: "/v1/api/users/1/url", payload: { url } });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toMatch(/^Invalid url: /);
  });
});

describe("the JSON body parser", () => {
  const post = (payload: string) =>
    suite.app.inject({
      method: "POST",
      url: "/v1/user-mgmt/check-email-available",
      headers: { ...auth(suite.token), "content-type": "application/json" },
      payload,
    });

  it("400 for a duplicate key", async () => {
    const response = await post('{"email": "a@wallet.example", "email": "b@wallet.example"}');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: expect.stringMatching(/^Body is not valid JSON: duplicate key "email"/),
    });
  });

  it("400 for a lone surrogate, escaped", async () => {
    const response = await post('{"email": "a\\ud800@wallet.example"}');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^Body is not valid JSON: .*lone surrogate/);
  });

  it("accepts a surrogate pair, and still refuses __proto__ and empty bodies", async () => {
    const pair = await post('{"email": "\\ud83d\\ude00@wallet.example"}');
    expect(pair.statusCode).toBe(400); // not an e-mail address, but parsed
    expect(pair.json().message).toMatch(/^Invalid email/);
    const proto = await post('{"__proto__": {"x": 1}, "email": "a@wallet.example"}');
    expect(proto.statusCode).toBe(400);
    expect(proto.json().message).toMatch(/prototype/);
    const empty = await post("");
    expect(empty.statusCode).toBe(400);
    const fine = await post('{"email": "nobody.here@wallet.example"}');
    expect(fine.statusCode, fine.body).toBe(200);
  });
});

describe("numbers", () => {
  it.each([
    [
      "/v1/user-mgmt/change-admin-permission",
      { admin_id: 2 ** 31, permission_codes: [] },
      "admin_id",
    ],
    [
      "/v1/user-mgmt/check-email-available",
      { email: "a@wallet.example", exclude_id: 2 ** 31 },
      "exclude_id",
    ],
  ])("400 for an id above 2^31-1 in %s", async (url, payload, field) => {
    const response = await send({ method: "POST", url, payload });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toMatch(new RegExp(`^Invalid ${field}: `));
  });

  it.each(["2147483648", "0x10", "1e2", "+1", " 1"])("400 for the path id %j", async (id) => {
    const response = await send({
      method: "GET",
      url: `/v1/api/administrators/${encodeURIComponent(id)}`,
    });
    expect(response.statusCode, response.body).toBe(400);
  });

  it.each(["0x10", "1e2", "2.0", ""])("400 for page=%j", async (page) => {
    const response = await send({
      method: "GET",
      url: `/v1/user-mgmt/get-user-list?role=student&page=${page}`,
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toMatch(/^Invalid page: /);
  });

  it("a decimal page is read", async () => {
    const response = await send({
      method: "GET",
      url: "/v1/user-mgmt/get-user-list?role=student&page=2",
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().page).toBe(2);
  });
});

describe("multipart", () => {
  it("400 for a truncated form on edit-rider-details", async () => {
    const response = await suite.app.inject({
      method: "POST",
      url: "/v1/user-mgmt/edit-rider-details",
      headers: { ...auth(suite.token), "content-type": "multipart/form-data; boundary=XYZ" },
      payload: '--XYZ\r\nContent-Disposition: form-data; name="account_number"\r\n\r\nR100',
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({
      code: "VALIDATION_ERROR",
      message: expect.stringMatching(/malformed or incomplete/),
    });
    await expectSignedInRequestWorks();
  });
});

describe("caching and methods", () => {
  it("every API answer says Cache-Control: no-store, errors included", async () => {
    const answers = await Promise.all([
      suite.app.inject({ url: "/v1/api/account/admin", headers: auth(suite.token) }),
      suite.app.inject({ url: "/v1/api/account/admin" }),
      suite.app.inject({ url: "/v1/health" }),
      suite.app.inject({ url: "/v1/api/no-such-thing" }),
      suite.app.inject({
        url: "/v1/user-mgmt/get-user-list?role=nobody",
        headers: auth(suite.token),
      }),
      suite.app.inject({ method: "DELETE", url: "/v1/api/auth/login" }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 401, 200, 404, 400, 405]);
    for (const answer of answers) expect(answer.headers["cache-control"]).toBe("no-store");
  });

  it("405 with Allow for an unknown method on a known path", async () => {
    const login = await suite.app.inject({ method: "DELETE", url: "/v1/api/auth/login" });
    expect(login.statusCode).toBe(405);
    expect(login.headers.allow).toBe("POST");
    expect(login.json()).toEqual({
      code: "METHOD_NOT_ALLOWED",
      message: "Method DELETE is not allowed on /v1/api/auth/login (allowed: POST)",
    });
    const admin = await suite.app.inject({
      method: "PUT",
      url: "/v1/api/administrators/1",
      headers: auth(suite.token),
    });
    expect(admin.statusCode).toBe(405);
    expect(String(admin.headers.allow).split(", ").sort()).toEqual(["GET", "HEAD", "PATCH"]);
    const unknown = await suite.app.inject({ method: "GET", url: "/v1/api/no-such-thing" });
    expect(unknown.statusCode).toBe(404);
  });

  it("414 in the API's error shape for an overlong path parameter", async () => {
    const response = await suite.app.inject({
      url: `/v1/api/administrators/${"1".repeat(150)}`,
      headers: auth(suite.token),
    });
    expect(response.statusCode).toBe(414);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(Object.keys(response.json())).toEqual(["message"]);
  });
});

type Operation = {
  security?: unknown[];
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: unknown;
  responses: Record<string, unknown>;
};

describe("the OpenAPI document agrees with the server", () => {
  let operations: Array<{ method: string; path: string; op: Operation }>;

  beforeAll(async () => {
    const response = await suite.app.inject({ url: "/v1/docs/json" });
    expect(response.statusCode).toBe(200);
    const document = response.json<{ paths: Record<string, Record<string, Operation>> }>();
    operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
    );
    expect(operations.length).toBeGreaterThan(20);
  });

  it("health, readiness, login (its second step, a passkey's challenge and a passkey alone), reset links, the calculator's report and the wallet app's public reads need no session; the rest do", () => {
    const open = operations.filter(
      ({ op }) => Array.isArray(op.security) && op.security.length === 0,
    );
    expect(open.map(({ method, path }) => `${method} ${path}`).sort()).toEqual([
      "GET /v1/api/public/app-config",
      "GET /v1/api/public/content-images/{id}",
      "GET /v1/api/public/help-articles",
      "GET /v1/api/public/merchant-announcements",
      "GET /v1/health",
      "GET /v1/ready",
      "POST /v1/api/app/password-reset",
      "POST /v1/api/app/password-reset/check",
      "POST /v1/api/app/sign-in",
      "POST /v1/api/auth/login",
      "POST /v1/api/auth/login/passkey",
      "POST /v1/api/auth/login/second-factor",
      "POST /v1/api/auth/passkey/challenge",
      "POST /v1/api/auth/password-reset",
      "POST /v1/api/auth/password-reset/check",
      "POST /v1/api/calculator/report",
    ]);
  });

  it("every operation the document says needs a session answers 401 without one, and lists 401 and 403", async () => {
    for (const { method, path, op } of operations) {
      const open = Array.isArray(op.security) && op.security.length === 0;
      const url = path.replace(/\{[^}]+\}/g, "1");
      const response = await suite.app.inject({
        method: method as "GET",
        url,
        payload: method === "GET" ? undefined : {},
      });
      if (open) {
        expect(response.statusCode, `${method} ${path}`).not.toBe(401);
        continue;
      }
      expect(response.statusCode, `${method} ${path}`).toBe(401);
      expect(Object.keys(op.responses), `${method} ${path}`).toEqual(
        expect.arrayContaining(["401", "403"]),
      );
    }
  });

  it("operations list the statuses their inputs can cause (400, 404, 413, 414, 415, 429)", () => {
    for (const { method, path, op } of operations) {
      const statuses = Object.keys(op.responses);
      const where = `${method} ${path}`;
      if (op.requestBody)
        expect(statuses, where).toEqual(expect.arrayContaining(["400", "413", "415"]));
      if (op.parameters?.some((parameter) => parameter.in === "path")) {
        expect(statuses, where).toEqual(expect.arrayContaining(["400", "404", "414"]));
      }
      if (op.parameters?.some((parameter) => parameter.in === "query")) {
        expect(statuses, where).toContain("400");
      }
    }
    const loginOp = operations.find(({ path }) => path === "/v1/api/auth/login");
    expect(Object.keys(loginOp?.op.responses ?? {})).toContain("429");
  });

  it("states the text rule, id bounds and page digits in the schemas", async () => {
    const response = await suite.app.inject({ url: "/v1/docs/json" });
    const text = response.body;
    expect(text).toContain("\\\\u0000-\\\\u001F");
    const admin = operations.find(
      ({ method, path }) => method === "POST" && path === "/v1/user-mgmt/change-admin-permission",
    );
    expect(JSON.stringify(admin?.op.requestBody)).toContain('"maximum":2147483647');
    // The known permission codes are listed, not only checked.
    expect(JSON.stringify(admin?.op.requestBody)).toContain('"enum":[0,4,8,12,16');
  });
});
