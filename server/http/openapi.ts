import { jsonSchemaTransform } from "fastify-type-provider-zod";

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
  return jsonSchemaTransform({ ...input, schema } as TransformInput);
}
