/**
 * The server's OpenAPI document (`/v1/docs/json`) as a list of operations: what the
 * authorisation matrix and the fuzz walk, so a route is covered by being served and documented,
 * whether the module kit or a hand-written route file registered it.
 */
import type { App } from "../../../server/app";
import type { RouteAccess } from "../../../server/auth/access";

export type JsonSchema = Record<string, unknown>;

export interface Parameter {
  in: "query" | "path" | "header" | "cookie";
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** The OpenAPI path, `{id}` style, with the API prefix. */
  path: string;
  access: RouteAccess;
  parameters: Parameter[];
  /** The request body's media types and their schemas (refs resolved). */
  body: Record<string, JsonSchema> | undefined;
  /** Statuses the document says the operation can answer. */
  statuses: number[];
  /** An aggregation list's allow-list (`x-aggregation`), if the operation is one. */
  aggregation?: unknown;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** Inlines `#/components/schemas/…` references (the API's schemas are not recursive). */
export function resolveRefs(value: unknown, document: OpenApiDocument): unknown {
  if (Array.isArray(value)) return value.map((item) => resolveRefs(item, document));
  if (value === null || typeof value !== "object") return value;
  const ref = (value as { $ref?: unknown }).$ref;
  if (typeof ref === "string") {
    const name = ref.replace("#/components/schemas/", "");
    const target = document.components?.schemas?.[name];
    if (!target) throw new Error(`Unresolvable $ref ${ref}`);
    return resolveRefs(target, document);
  }
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, resolveRefs(item, document)]),
  );
}

export async function openApiDocument(app: App): Promise<OpenApiDocument> {
  const response = await app.inject({ method: "GET", url: "/v1/docs/json" });
  if (response.statusCode !== 200) throw new Error(`/v1/docs/json: ${response.statusCode}`);
  return response.json<OpenApiDocument>();
}

/** Every documented operation, in the document's order. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      const operation = resolveRefs(raw, document) as {
        "x-access"?: RouteAccess;
        "x-aggregation"?: unknown;
        parameters?: Parameter[];
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
        responses?: Record<string, unknown>;
      };
      const content = operation.requestBody?.content;
      operations.push({
        method: method.toUpperCase() as Operation["method"],
        path,
        access: operation["x-access"] as RouteAccess,
        parameters: operation.parameters ?? [],
        body: content
          ? Object.fromEntries(Object.entries(content).map(([type, { schema }]) => [type, schema]))
          : undefined,
        statuses: Object.keys(operation.responses ?? {}).map(Number),
        ...(operation["x-aggregation"] ? { aggregation: operation["x-aggregation"] } : {}),
      });
    }
  }
  return operations;
}

/** The operation's URL with each path parameter filled in by `fill` (default: `id` → 1). */
export function urlOf(operation: Operation, fill: (name: string) => string = () => "1"): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_match, name: string) =>
    encodeURIComponent(fill(name)),
  );
}

/** Fastify's form of an OpenAPI path (`/api/users/{id}` → `/api/users/:id`). */
export const fastifyPath = (path: string) => path.replace(/\{([^}]+)\}/g, ":$1");

export const describeOperation = (operation: Pick<Operation, "method" | "path">) =>
  `${operation.method} ${operation.path}`;

/**
 * OpenAPI 3.0 → JSON Schema for ajv: a nullable schema also takes null (a nullable enum lists
 * null itself), and the boolean `exclusiveMinimum`/`exclusiveMaximum` become the bound they
 * qualify. The names of `properties` are names, never keywords.
 */
export function forAjv(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forAjv);
  if (schema === null || typeof schema !== "object") return schema;
  const converted = (key: string, value: unknown) => {
    if (key === "enum") return value;
    if (key !== "properties") return forAjv(value);
    return Object.fromEntries(
      Object.entries(value as JsonSchema).map(([name, property]) => [name, forAjv(property)]),
    );
  };
  const out = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, converted(key, value)]),
  ) as JsonSchema;
  for (const [exclusive, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof out[exclusive] !== "boolean") continue;
    if (out[exclusive]) out[exclusive] = out[bound];
    else delete out[exclusive];
    if (out[exclusive] !== undefined) delete out[bound];
  }
  if (out.nullable === true) {
    delete out.nullable;
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return { anyOf: [out, { type: "null" }] };
  }
  return out;
}
