/**
 * The authorisation matrix: every operation the server documents (module-kit routes and
 * hand-written ones alike, read from the OpenAPI document) × every kind of caller: no session,
 * each demo administrator, an administrator lacking the operation's code, and one banned after
 * logging in. The access each operation needs comes from its `x-access`, which is the route's own
 * declaration; the module declarations are checked to reach the document unchanged.
 */
import { beforeAll, describe, expect, it } from "vitest";

import { noPermissionMessage } from "../../server/auth/access";
import { TOKEN_MESSAGES } from "../../server/auth/tokens";
import { moduleRoutes } from "../../server/kit/routes";
import { BOUND_MODULES } from "../../server/modules";
import { holdsPermission, PERMISSION_CODES } from "../../src/shared/permissions";
import type { AdminDto } from "../../src/shared/schemas/administrators";
import { auth, createAdmin, DEMO, login, tokensLacking, useSignedInApp } from "./support/app";
import {
  describeOperation,
  fastifyPath,
  openApiDocument,
  operationsOf,
  urlOf,
  type Operation,
} from "./support/openapi";

const suite = useSignedInApp();
let operations: Operation[] = [];
const demo = new Map<string, { token: string; admin: AdminDto }>();
let lacking = new Map<number, string>();
let bannedToken = "";

/** The demo administrators the seed creates and that can log in (the banned one cannot). */
const DEMO_ROLES = ["superAdmin", "userDesk", "finance"] as const;

/**
 * Ending one's other sessions ends the same administrator's other tokens, and a logout the
 * caller's own: they run after every other operation, in that order, so the caller's tokens
 * serve the whole matrix.
 */
const endsSession = (operation: Operation) =>
  operation.method !== "POST"
    ? 0
    : operation.path.endsWith("/end-others")
      ? 1
      : operation.path.endsWith("/logout")
        ? 2
        : 0;

beforeAll(async () => {
  const document = await openApiDocument(suite.app);
  operations = operationsOf(document).sort((a, b) => endsSession(a) - endsSession(b));
  for (const role of DEMO_ROLES) demo.set(role, await login(suite.app, DEMO[role]));
  const codes = operations.flatMap(({ access }) =>
    typeof access === "object" ? [access.permission] : [],
  );
  lacking = await tokensLacking(suite.app, suite.token, codes);
  const banned = await createAdmin(suite.app, suite.token, [...PERMISSION_CODES]);
  const ban = await suite.app.inject({
    method: "PATCH",
    url: `/v1/api/administrators/${banned.admin.id}/status`,
    headers: auth(suite.token),
    payload: { status: "banned" },
  });
  expect(ban.statusCode, ban.body).toBe(200);
  bannedToken = banned.token;
}, 120_000);

/**
 * One call of the operation with input that can change nothing: an id no record has and an empty
 * body. The access check runs before any input is read, so a caller without access is refused
 * whatever it sends, and a caller with access gets past it (to a 400 or a 404, mostly).
 */
function send(operation: Operation, token?: string) {
  return suite.app.inject({
    method: operation.method,
    url: urlOf(operation, () => "999999"),
    ...(token ? { headers: auth(token) } : {}),
    ...(operation.body ? { payload: {} } : {}),
  });
}

function expectAllowed(response: { statusCode: number; body: string }, who: string) {
  expect([401, 403], `${who}: ${response.body}`).not.toContain(response.statusCode);
  expect(response.statusCode, `${who}: ${response.body}`).toBeLessThan(500);
}

/** The wallet app's routes take only wallet app tokens: a console token is not one. */
function expectConsoleTokenRefused(response: { statusCode: number; json(): unknown }, who: string) {
  expect(response.statusCode, who).toBe(401);
  expect(response.json()).toEqual({ message: TOKEN_MESSAGES.invalid });
}

const each = (title: string, test: (operation: Operation) => Promise<void>) =>
  it(title, async () => {
    expect(operations.length).toBeGreaterThan(0);
    for (const operation of operations) await test(operation);
  });

describe("the OpenAPI document", () => {
  each("states the access of every operation", async (operation) => {
    expect(operation.access, describeOperation(operation)).toBeDefined();
  });

  it("carries every route of every module declaration, with the declared access", () => {
    for (const bound of BOUND_MODULES) {
      for (const route of moduleRoutes(bound)) {
        const documented = operations.find(
          (operation) =>
            operation.method === route.method && fastifyPath(operation.path) === `/v1${route.url}`,
        );
        expect(documented, `${route.method} ${route.url}`).toBeDefined();
        expect(documented!.access).toEqual(route.access);
      }
    }
  });
});

describe("without a session", () => {
  each("every operation but the public ones answers 401 Missing credential key", async (op) => {
    const response = await send(op);
    if (op.access === "public") {
      expectAllowed(response, describeOperation(op));
    } else {
      expect(response.statusCode, describeOperation(op)).toBe(401);
      expect(response.json()).toEqual({ message: TOKEN_MESSAGES.missing });
    }
  });
});

describe.each(DEMO_ROLES)("as the demo administrator %s", (role) => {
  each("reaches exactly the operations its codes allow", async (operation) => {
    const { token, admin } = demo.get(role)!;
    const response = await send(operation, token);
    const who = `${role} ${describeOperation(operation)}`;
    const { access } = operation;
    if (access === "wallet") {
      expectConsoleTokenRefused(response, who);
    } else if (typeof access !== "object" || holdsPermission(admin, access.permission)) {
      expectAllowed(response, who);
    } else {
      expect(response.statusCode, who).toBe(403);
      expect(response.json()).toEqual({
        message: noPermissionMessage(operation.method, access.thing),
      });
    }
  });
});

describe("as an administrator holding every code but the operation's", () => {
  each("every permission operation answers 403 naming it", async (operation) => {
    const { access } = operation;
    if (typeof access !== "object") return;
    const response = await send(operation, lacking.get(access.permission));
    expect(response.statusCode, describeOperation(operation)).toBe(403);
    expect(response.json()).toEqual({
      message: noPermissionMessage(operation.method, access.thing),
    });
  });
});

describe("as an administrator banned after logging in", () => {
  each("every operation but the public ones answers 403 User banned from login", async (op) => {
    const response = await send(op, bannedToken);
    if (op.access === "public") {
      expectAllowed(response, describeOperation(op));
    } else if (op.access === "wallet") {
      expectConsoleTokenRefused(response, describeOperation(op));
    } else {
      expect(response.statusCode, describeOperation(op)).toBe(403);
      expect(response.json()).toEqual({ message: TOKEN_MESSAGES.banned });
    }
  });

  it("and the seeded banned administrator cannot log in", async () => {
    const response = await suite.app.inject({
      method: "POST",
      url: "/v1/api/auth/login",
      payload: DEMO.banned,
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ message: "User is banned from login." });
  });
});
