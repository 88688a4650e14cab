import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { z } from "zod";

import { errorBodySchema } from "../../src/shared/schemas/common";

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];
type RouteLike = {
  method?: string | string[];
  url?: string;
  config?: { access?: unknown; rateLimit?: unknown };
  schema?: Record<string, unknown>;
};

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

/**
 * Rules of a request body that JSON Schema cannot state (they compare fields, or depend on
 * another field's value), by the body's schema id. Each is written into the operation's
 * description and, for tools, into `x-cross-field-rules` ({fields, rule}). The rules themselves
 * are refinements in the declarations named here; keep the two in step.
 */
const CROSS_FIELD_RULES: Record<string, Array<{ fields: string[]; rule: string }>> = {
  // src/shared/modules/wallet-policies.ts
  WalletPolicyBody: [
    {
      fields: ["minTopUpSen", "maxTopUpSen", "dailyTopUpLimitSen", "maxBalanceSen"],
      rule: "minTopUpSen ≤ maxTopUpSen ≤ dailyTopUpLimitSen ≤ maxBalanceSen",
    },
  ],
  // src/shared/modules/parking.ts
  ParkingLotBody: [
    { fields: ["dailyCapSen", "hourlyRateSen"], rule: "dailyCapSen ≥ hourlyRateSen" },
  ],
  ParkingSessionBody: [
    {
      fields: ["plate"],
      rule: "plate: 2 to 10 letters and digits once blanks are removed (case does not matter)",
    },
  ],
  // src/shared/modules/merchant-announcements.ts
  MerchantAnnouncementBody: [
    { fields: ["expiresAt", "publishAt"], rule: "expiresAt, when given, is after publishAt" },
    {
      fields: ["categories", "audience"],
      rule: 'audience "categories" needs at least one category; a category appears once',
    },
  ],
  // src/shared/modules/ucsi-ids.ts
  LinkUcsiIdBody: [
    {
      fields: ["ucsiId", "type"],
      rule: 'ucsiId: ten digits for type "student", S and five digits for type "staff"',
    },
  ],
  // src/shared/schemas/user-actions.ts, src/shared/schemas/user-mgmt.ts
  BanBody: [{ fields: ["remark", "ban"], rule: "remark is required when ban is true" }],
  // src/shared/modules/app-notifications.ts
  AppNotificationBody: [{ fields: ["roles"], rule: "each role at most once" }],
  // src/shared/modules/business-updates.ts, src/shared/global-settings.ts
  GlobalSettingsBody: [{ fields: [], rule: "at least one field" }],
};

/**
 * The same for inputs without a schema id, by route (`METHOD /url` without the API prefix): query
 * ranges, and text the server reads as a number or a URL (src/shared/schemas/riders.ts, agents.ts,
 * user-mgmt.ts, user-actions.ts, report.ts).
 */
const ROUTE_RULES: Record<string, Array<{ fields: string[]; rule: string }>> = {
  "GET /user-mgmt/rider-attendance": [
    { fields: ["end_date", "start_date"], rule: "start_date ≤ end_date, at most 366 days apart" },
  ],
  "POST /user-mgmt/agent/change-agent-commission": [
    {
      fields: ["commission_rate"],
      rule: 'commission_rate: a percentage from 0 to 100 with at most two decimals (12.5 or "12.50")',
    },
  ],
  "POST /user-mgmt/ban-user": [
    { fields: ["remark", "ban"], rule: "remark is required when ban is true" },
  ],
  "PATCH /api/users/:id/url": [
    {
      fields: ["url"],
      rule: "url: an absolute http:// or https:// address, no blanks or backslashes",
    },
  ],
  "POST /api/calculator/report": [
    { fields: ["inputs"], rule: "each amount in inputs is a number written as text, e.g. 1234.56" },
  ],
};

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
  const methods = [route.method ?? []].flat().map((method) => method.toUpperCase());
  const path = (input as { url?: string }).url?.replace(/^\/v1/, "") ?? "";
  const rules = [
    ...crossFieldRules(schema.body),
    ...methods.flatMap((method) => ROUTE_RULES[`${method} ${path}`] ?? []),
  ];
  if (rules.length > 0) {
    schema["x-cross-field-rules"] = rules;
    schema.description = [
      schema.description,
      `Also checked (beyond the schema; x-cross-field-rules): ${rules.map((rule) => rule.rule).join("; ")}.`,
    ]
      .filter(Boolean)
      .join(" ");
  }
  const transformed = jsonSchemaTransform({ ...input, schema } as TransformInput);
  describeAggregationParameters(transformed.schema as Record<string, unknown>);
  return transformed;
}

function crossFieldRules(body: unknown): Array<{ fields: string[]; rule: string }> {
  if (!(body instanceof z.ZodType)) return [];
  const id = z.globalRegistry.get(body)?.id;
  return (id && CROSS_FIELD_RULES[id]) || [];
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
