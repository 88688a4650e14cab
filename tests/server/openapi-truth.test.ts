/**
 * The OpenAPI document tells the truth about input, both ways:
 * - everything its schemas allow is accepted: for every operation with a JSON body or query or
 *   path parameters, instances generated from the DOCUMENTED schema alone (support/
 *   schema-instances.ts: typical values and boundaries, the longest allowed string, the smallest
 *   and largest number, accented and Chinese text, an emoji) are sent as the super
 *   administrator (a wallet user on the wallet's routes, nobody on public ones), and no answer is
 *   a 400 refusing the input. Other refusals for business reasons (404, 409, 403, …) are fine;
 *   the test prints which it saw.
 * - what the server refuses for each kind of rule (a NUL byte, a bidirectional override, a string
 *   one over maxLength, a number one over maximum, a date outside the years, an id out of range)
 *   is refused with 400 AND breaks the document's schema (ajv), so the two agree.
 */
import { beforeAll, describe, expect, it } from "vitest";

import { INVISIBLE_BMP_RANGES, SINGLE_LINE_PATTERN } from "../../src/shared/text";
import { useSignedInApp, walletAppToken } from "./support/app";
import { A_REASON } from "./support/four-eyes";
import {
  describeOperation,
  openApiDocument,
  operationsOf,
  urlOf,
  type JsonSchema,
  type Operation,
  type Parameter,
} from "./support/openapi";
import { documentVerdict, instancesOf, sample, type Instance } from "./support/schema-instances";

const SEED = 20_260_531;
/** Cases per operation (the first is always the typical one). */
const CASES_PER_OPERATION = Number(process.env.TRUTH_CASES ?? 14);

const suite = useSignedInApp();
let operations: Operation[] = [];
let walletToken = "";
let superAdminId = 0;
/** Per operation (`GET /v1/…`), the fields its cross-field rules name (`x-cross-field-rules`). */
const crossFieldFields = new Map<string, Set<string>>();

beforeAll(async () => {
  const document = await openApiDocument(suite.app);
  operations = operationsOf(document);
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const rules = operation["x-cross-field-rules"] as Array<{ fields: string[] }> | undefined;
      if (rules) {
        crossFieldFields.set(
          `${method.toUpperCase()} ${path}`,
          new Set(rules.flatMap((rule) => rule.fields)),
        );
      }
    }
  }
  walletToken = await walletAppToken(suite.testDb);
  const me = await suite.app.inject({
    url: "/v1/api/account/admin",
    headers: { authorization: suite.token },
  });
  superAdminId = me.json<{ id: number }>().id;
}, 60_000);

/** Query or path parameters as one object schema (unknown parameters are not allowed). */
function parametersSchema(parameters: Parameter[]): JsonSchema {
  return {
    type: "object",
    properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema])),
    required: parameters.filter((p) => p.required).map((p) => p.name),
    additionalProperties: false,
  };
}

interface Case {
  url: string;
  body?: unknown;
  note: string;
}

/**
 * An operation's cases: its typical path, query and body together, then each part varied alone.
 * The super administrator's own id is never a path parameter (the cases must not disable the
 * session they run on).
 */
function casesOf(operation: Operation, seed: number): Case[] {
  const path = operation.parameters.filter((p) => p.in === "path");
  const query = operation.parameters.filter((p) => p.in === "query");
  const body = operation.body?.["application/json"];
  const pathInstances = instancesOf(parametersSchema(path), seed).filter(
    (instance) =>
      !Object.values(instance.value as Record<string, string>).includes(String(superAdminId)),
  );
  const queryInstances = query.length > 0 ? instancesOf(parametersSchema(query), seed) : [];
  const bodyInstances = body ? instancesOf(body, seed) : [];
  const typical = {
    path: pathInstances[0] ?? { value: {}, note: "" },
    query: queryInstances[0],
    body: bodyInstances[0],
  };
  const build = (parts: typeof typical, note: string): Case => {
    const values = parts.path.value as Record<string, string>;
    const search = new URLSearchParams((parts.query?.value ?? {}) as Record<string, string>);
    const text = search.toString();
    return {
      url: urlOf(operation, (name) => values[name] ?? "1") + (text ? `?${text}` : ""),
      ...(parts.body ? { body: parts.body.value } : {}),
      note,
    };
  };
  const vary = (part: keyof typeof typical, list: Instance[]) =>
    list
      .slice(1)
      .map((instance) => build({ ...typical, [part]: instance }, `${part} ${instance.note}`));
  return [
    build(typical, "typical"),
    ...sample(
      [
        ...vary("path", pathInstances),
        ...vary("query", queryInstances),
        ...vary("body", bodyInstances),
      ],
      CASES_PER_OPERATION - 1,
      seed,
    ),
  ];
}

/** Operations the generated cases must leave alone: the one that ends the session it runs on. */
const SKIPPED = new Set(["POST /v1/api/auth/logout"]);

const hasInput = (operation: Operation) =>
  operation.parameters.length > 0 || operation.body?.["application/json"] !== undefined;

/**
 * A change that may wait for a second approver (it documents 202) is sent with a reason for the
 * approver, as its description asks, so that documented input is held (202) rather than refused
 * for the missing reason.
 */
function headersFor(operation: Operation, body: boolean): Record<string, string> {
  const headers: Record<string, string> = body ? { "content-type": "application/json" } : {};
  if (operation.access === "wallet") headers.authorization = `Bearer ${walletToken}`;
  else if (operation.access !== "public") headers.authorization = suite.token;
  if (operation.statuses.includes(202)) Object.assign(headers, A_REASON);
  return headers;
}

let address = 0;
async function send(operation: Operation, request: { url: string; body?: unknown }) {
  address += 1;
  return suite.app.inject({
    method: operation.method,
    url: request.url,
    headers: headersFor(operation, request.body !== undefined),
    // A client address per case, so the per-address rate limits do not answer for the input.
    remoteAddress: `10.77.${(address >> 8) & 255}.${address & 255}`,
    ...(request.body !== undefined ? { payload: JSON.stringify(request.body) } : {}),
  });
}

describe("the OpenAPI document allows only what the server accepts", () => {
  it("answers no instance of a documented schema with a 400", async () => {
    const refused = new Map<string, string[]>();
    const statuses: Record<string, number> = {};
    /** 400s the document states in prose only (cross-field rules, the aggregation JSON). */
    const prose: Record<string, number> = {};
    /** 400s for a business reason, by code. */
    const business: Record<string, number> = {};
    /** Operations that answered 202 (a change held for a second approver, a link sent). */
    const accepted = new Set<string>();
    let cases = 0;
    for (const [index, operation] of operations.entries()) {
      const name = describeOperation(operation);
      if (!hasInput(operation) || SKIPPED.has(name)) continue;
      for (const request of casesOf(operation, SEED + index)) {
        const response = await send(operation, request);
        cases += 1;
        const key = `${response.statusCode}`;
        statuses[key] = (statuses[key] ?? 0) + 1;
        if (response.statusCode === 202) accepted.add(name);
        // A 400 for a business reason (a wrong current password, a top-up under the policy's
        // minimum) is not a refusal of the input's form.
        if (response.statusCode !== 400) continue;
        const answer = response.json<{
          code?: string;
          data?: { issues?: Array<{ path: string }> };
        }>();
        const fields = crossFieldFields.get(name);
        const issues = answer.data?.issues ?? [];
        if (
          answer.code === "VALIDATION_ERROR" &&
          fields &&
          (issues.length === 0 ||
            issues.every((issue) => {
              const field = String(issue.path).split(".")[0]!;
              return fields.has(field);
            }))
        ) {
          prose[`${name} (cross-field rule)`] = (prose[`${name} (cross-field rule)`] ?? 0) + 1;
          continue;
        }
        if (answer.code === "INVALID_QUERY" && request.note.startsWith("query ")) {
          // The JSON inside filter, sort and pagination: the description and x-aggregation.
          prose["aggregation parameters"] = (prose["aggregation parameters"] ?? 0) + 1;
          continue;
        }
        if (answer.code === "VALIDATION_ERROR" || answer.code === "INVALID_QUERY" || !answer.code) {
          const shown = `${request.note}: ${request.url} ${JSON.stringify(request.body ?? "").slice(0, 160)} → ${response.body.slice(0, 200)}`;
          refused.set(name, [...(refused.get(name) ?? []), shown]);
        } else {
          business[answer.code] = (business[answer.code] ?? 0) + 1;
        }
      }
    }
    console.info(
      `openapi truth: ${cases} cases; statuses ${JSON.stringify(statuses)}; ` +
        `${refused.size} operations refused documented input; refusals stated in prose ` +
        `${JSON.stringify(prose)}; business 400s ${JSON.stringify(business)}`,
    );
    for (const [name, list] of refused)
      console.info(`${name} (${list.length})\n  ${list.slice(0, 3).join("\n  ")}`);
    expect([...refused.keys()]).toEqual([]);
    // A 202 (a change held for a second approver) only where the document says so.
    const undocumented = operations.filter(
      (operation) =>
        accepted.has(describeOperation(operation)) && !operation.statuses.includes(202),
    );
    expect(undocumented.map(describeOperation)).toEqual([]);
    const still = await suite.app.inject({
      url: "/v1/api/account/admin",
      headers: { authorization: suite.token },
    });
    expect(still.statusCode, "the super administrator's session survived").toBe(200);
  }, 120_000);
});

describe("a change that waits for a second approver", () => {
  it("is documented with its 202: a new administrator's creation", () => {
    const create = operations.find(
      (operation) => describeOperation(operation) === "POST /v1/api/administrators",
    );
    expect(create?.statuses).toEqual(expect.arrayContaining([201, 202]));
  });
});

/**
 * One broken rule per case, on an operation whose document states it: the document's schema
 * refuses the input (ajv), and so does the server, with 400.
 */
const INVALID: Array<{
  rule: string;
  method: Operation["method"];
  path: string;
  url?: string;
  /** The whole body, instead of the typical instance with `field` changed. */
  body?: Record<string, unknown>;
  field?: string;
  value?: unknown;
  /** Fields left out of the typical instance. */
  without?: string[];
}> = [
  {
    rule: "a NUL byte",
    method: "POST",
    path: "/v1/api/administrators",
    field: "name",
    value: "a\u0000b",
  },
  {
    rule: "a bidirectional override",
    method: "POST",
    path: "/v1/api/administrators",
    field: "name",
    value: "abc\u202edef",
  },
  {
    rule: "only invisible characters",
    method: "POST",
    path: "/v1/api/administrators",
    field: "name",
    value: "\u200b\u200d",
  },
  {
    rule: "blank where a trim precedes a minimum",
    method: "POST",
    path: "/v1/api/administrators",
    field: "name",
    value: "   ",
  },
  {
    rule: "one over maxLength",
    method: "POST",
    path: "/v1/api/administrators",
    field: "name",
    value: "x".repeat(101),
  },
  {
    rule: "not an e-mail address",
    method: "POST",
    path: "/v1/api/administrators",
    field: "email",
    value: "not-an-address",
  },
  {
    rule: "one over maximum",
    method: "POST",
    path: "/v1/api/wallet-policies",
    field: "dormancyDays",
    value: 36_501,
  },
  {
    rule: "a date past 2199",
    method: "POST",
    path: "/v1/api/merchant-announcements",
    field: "publishAt",
    value: "2200-01-01T00:00:00Z",
  },
  {
    rule: "no field at all where one is needed (minProperties)",
    method: "PATCH",
    path: "/v1/api/global-settings",
    body: {},
  },
  {
    rule: "a role twice (uniqueItems)",
    method: "POST",
    path: "/v1/api/app-notifications",
    field: "audience",
    value: ["student", "student"],
  },
  {
    rule: "a category twice (uniqueItems)",
    method: "POST",
    path: "/v1/api/merchant-announcements",
    field: "categories",
    value: ["cafe", "cafe"],
  },
  {
    rule: "a plate of one letter (pattern)",
    method: "POST",
    path: "/v1/api/parking-sessions",
    field: "plate",
    value: " w ",
  },
  {
    rule: "a plate of letters that upper-case to ASCII (pattern)",
    method: "POST",
    path: "/v1/api/parking-sessions",
    field: "plate",
    value: "WXß 12",
  },
  {
    rule: "a ban without a remark (allOf of alternatives)",
    method: "PATCH",
    path: "/v1/api/users/{id}/ban",
    url: "/v1/api/users/1/ban",
    field: "ban",
    value: true,
    without: ["remark"],
  },
  {
    rule: "the categories audience without a category (allOf of alternatives)",
    method: "POST",
    path: "/v1/api/merchant-announcements",
    field: "audience",
    value: "categories",
    without: ["categories"],
  },
  {
    rule: "an id past 2147483647",
    method: "GET",
    path: "/v1/api/administrators/{id}",
    url: "/v1/api/administrators/2147483648",
  },
  {
    rule: "a page past 1000000",
    method: "GET",
    path: "/v1/api/administrators/{id}/audit",
    url: "/v1/api/administrators/1/audit?page=1000001",
  },
];

describe("what the server refuses, the document refuses too", () => {
  it.each(INVALID)("$rule", async (invalid) => {
    const operation = operations.find(
      (op) => op.method === invalid.method && op.path === invalid.path,
    );
    expect(operation, `${invalid.method} ${invalid.path}`).toBeDefined();
    let url = invalid.url ?? invalid.path;
    let body: Record<string, unknown> | undefined;
    if (invalid.field || invalid.body) {
      const schema = operation!.body!["application/json"]!;
      body = invalid.body ?? {
        ...(instancesOf(schema, SEED)[0]!.value as Record<string, unknown>),
        [invalid.field!]: invalid.value,
      };
      for (const field of invalid.without ?? []) delete body[field];
      expect(documentVerdict(schema, body), "the document refuses it").toBeDefined();
    } else {
      const [path, search] = url.split("?");
      const values = Object.fromEntries(new URLSearchParams(search ?? ""));
      const template = operation!.path.split("/");
      path!.split("/").forEach((segment, i) => {
        const name = /^\{(.+)\}$/.exec(template[i] ?? "")?.[1];
        if (name) values[name] = segment;
      });
      expect(
        documentVerdict(parametersSchema(operation!.parameters), values),
        "the document refuses it",
      ).toBeDefined();
      url = invalid.url!;
    }
    const response = await send(operation!, { url, body });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json<{ code: string }>().code).toBe("VALIDATION_ERROR");
  });

  it("writes out the invisible characters of the BMP as the server's rule counts them", () => {
    const invisible = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/u;
    const stated = new RegExp(`[${INVISIBLE_BMP_RANGES}]`);
    for (let code = 0; code < 0x10000; code += 1) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCharCode(code);
      const forbidden = !SINGLE_LINE_PATTERN.test(char);
      const expected = invisible.test(char) && !/\s/.test(char) && !forbidden;
      if (stated.test(char) !== expected) expect.fail(`U+${code.toString(16)}`);
    }
  });
});
