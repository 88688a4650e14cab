import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { z } from "zod";

import { errorBodySchema } from "../../src/shared/schemas/common";
import { RULE_STATEMENTS_KEY, type RuleStatement } from "../../src/shared/schemas/rules";

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];
type RouteLike = {
  method?: string | string[];
  url?: string;
  config?: {
    access?: unknown;
    rateLimit?: unknown;
    versions?: { ifMatch?: boolean; etag?: boolean };
  };
  schema?: Record<string, unknown>;
};

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

/** The JSON-encoded parameters of an aggregation list (server/aggregation/query-params.ts). */
const AGGREGATION_PARAMETERS = ["filter", "sort", "pagination"];
/** What server/aggregation/types.ts allows per parameter (maxParameterLength). */
const AGGREGATION_PARAMETER_MAX_LENGTH = 8192;

/**
 * The error statuses the server can answer on a route, whether or not the route lists them: the
 * OpenAPI document must describe what the server does (a generated client or a fuzzer built from
 * it must agree with the server).
 * - 400: any input (body, query string, path parameter) can be refused;
 * - 401, 403: every route that needs a session (no or bad token; banned, or missing permission);
 * - 404: a route with a path parameter names something that may not exist;
 * - 413, 415: a route with a body (size limit; only JSON, or multipart where it says so);
 * - 414: a path parameter longer than the router accepts;
 * - 429: a rate-limited route.
 */
export function impliedErrorStatuses(route: RouteLike): number[] {
  const methods = [route.method ?? []].flat().map((method) => method.toUpperCase());
  const schema = route.schema ?? {};
  const statuses = new Set<number>();
  const hasParams = schema.params !== undefined || (route.url ?? "").includes(":");
  if (schema.body !== undefined || schema.querystring !== undefined || hasParams) statuses.add(400);
  if (route.config?.access !== "public") {
    statuses.add(401);
    statuses.add(403);
  }
  if (hasParams) {
    statuses.add(404);
    statuses.add(414);
  }
  if (schema.body !== undefined || methods.some((method) => BODY_METHODS.has(method))) {
    statuses.add(400);
    statuses.add(413);
    statuses.add(415);
  }
  if (route.config?.rateLimit !== undefined) statuses.add(429);
  return [...statuses].sort((a, b) => a - b);
}

/**
 * fastify-swagger's transform: the zod schemas become JSON Schema (jsonSchemaTransform), every
 * implied error status is listed with the API's error body, public routes (health, login, the
 * calculator's report) say they need no session (`security: []`), and every operation states the
 * access it declares as `x-access` ("public", "session" or `{permission, thing}`: the code it
 * needs and the name its 403 message uses), so a client or the authorisation matrix can read it.
 * The rules JSON Schema cannot state, which the inputs' schemas carry, are listed as
 * `x-cross-field-rules` and at the end of the description.
 */
export function openApiTransform(input: TransformInput) {
  const route = (input as { route?: RouteLike }).route ?? {};
  const schema = { ...(input.schema as Record<string, unknown>) };
  const response = { ...((schema.response as Record<string, unknown> | undefined) ?? {}) };
  for (const status of impliedErrorStatuses({ ...route, schema })) {
    response[status] ??= errorBodySchema;
  }
  schema.response = response;
  if (route.config?.access === "public") schema.security = [];
  if (route.config?.access !== undefined) schema["x-access"] = route.config.access;
  const rules = ruleStatements([schema.body, schema.querystring]);
  if (rules.length > 0) {
    schema[RULE_STATEMENTS_KEY] = rules;
    schema.description = [
      schema.description,
      `Also checked (beyond the schema; x-cross-field-rules): ${rules.map((rule) => rule.rule).join("; ")}.`,
    ]
      .filter(Boolean)
      .join(" ");
  }
  const transformed = jsonSchemaTransform({ ...input, schema } as TransformInput);
  describeAggregationParameters(transformed.schema as Record<string, unknown>);
  describeVersions(transformed.schema as Record<string, unknown>, route.config?.versions);
  return transformed;
}

/** The If-Match a change of a versioned record takes, as OpenAPI's own (docs/versions.md). */
export const IF_MATCH_PARAMETER = {
  type: "string",
  maxLength: 200,
  pattern: '^(\\*|"[a-z][a-z0-9-]{0,63}/[1-9][0-9]{0,9}/[1-9][0-9]{0,9}")$',
  description:
    'The ETag of the record the change is based on ("<collection>/<id>/<version>", as GET one ' +
    "answers it), or * (no check; as without the header). A record that has moved on answers " +
    "409 VERSION_CONFLICT; a malformed value 400 IF_MATCH_INVALID; another record's ETag 400 " +
    "IF_MATCH_OTHER_RECORD.",
} as const;

/** The ETag a versioned record's answer carries. */
export const ETAG_HEADER_SCHEMA = {
  type: "string",
  description: 'The record\'s version as a strong ETag: "<collection>/<id>/<version>".',
} as const;

/**
 * Record versions (docs/versions.md) in the document: the If-Match header a change of a versioned
 * record takes, the ETag its success answers (route config `versions`). Only documented here:
 * the route reads the header itself, so that a bad one answers its own code.
 */
function describeVersions(
  schema: Record<string, unknown>,
  versions: { ifMatch?: boolean; etag?: boolean } | undefined,
): void {
  if (!versions) return;
  if (versions.ifMatch) {
    const headers = (schema.headers as Record<string, unknown> | undefined) ?? {
      type: "object",
      properties: {},
    };
    const properties = (headers.properties as Record<string, unknown> | undefined) ?? {};
    schema.headers = { ...headers, properties: { ...properties, "if-match": IF_MATCH_PARAMETER } };
  }
  if (versions.etag) {
    const response = (schema.response as Record<string, Record<string, unknown>> | undefined) ?? {};
    for (const status of ["200", "201"]) {
      const answer = response[status];
      if (!answer) continue;
      response[status] = { ...answer, headers: { ETag: ETAG_HEADER_SCHEMA } };
    }
  }
}

/**
 * The rules JSON Schema cannot state that a route's inputs carry (src/shared/schemas/rules.ts):
 * each is written where it is checked, as a statement in its schema's metadata, found here
 * wherever it sits in the input (the body, a field of it, the query), once each.
 */
function ruleStatements(schemas: unknown[]): RuleStatement[] {
  const found = new Map<string, RuleStatement>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      if (key === RULE_STATEMENTS_KEY && Array.isArray(value)) {
        for (const statement of value as RuleStatement[]) found.set(statement.rule, statement);
      } else {
        visit(value);
      }
    }
  };
  for (const schema of schemas) {
    if (!(schema instanceof z.ZodType)) continue;
    visit(z.toJSONSchema(schema, { io: "input", unrepresentable: "any", cycles: "ref" }));
  }
  return [...found.values()];
}

/**
 * The aggregation parameters are JSON in a query string, which OpenAPI 3.0's schema cannot type:
 * the document states what it can (a JSON object's text, its size) and the description the rest
 * (the fields the list allows are its `x-aggregation`).
 */
function describeAggregationParameters(schema: Record<string, unknown>): void {
  const querystring = schema.querystring as
    { properties?: Record<string, Record<string, unknown>> } | undefined;
  const properties = querystring?.properties;
  if (!properties || !AGGREGATION_PARAMETERS.every((name) => properties[name])) return;
  for (const name of AGGREGATION_PARAMETERS) {
    properties[name] = {
      ...properties[name],
      minLength: 2,
      maxLength: AGGREGATION_PARAMETER_MAX_LENGTH,
      pattern: "^\\s*\\{[\\s\\S]*\\}\\s*$",
      description:
        `${String(properties[name]!.description ?? "")} A JSON object's text (application/json), ` +
        `at most ${AGGREGATION_PARAMETER_MAX_LENGTH} characters and 16 levels deep, without ` +
        "duplicate keys; the fields it may name are the operation's x-aggregation.",
    };
  }
}
