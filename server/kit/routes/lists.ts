/**
 * A module's lists under the aggregation contract (docs/api.md): its own list and each related
 * list of one record, with the allow-list stated in the OpenAPI document as `x-aggregation`.
 */
import type { FieldDecl, ModuleDecl } from "../../../src/shared/kit/module";
import { aggregationListSchema } from "../../../src/shared/kit/list";
import { errorResponses, idParamsSchema } from "../../../src/shared/schemas/common";
import {
  AGGREGATION_LIMITS,
  aggregationPreValidation,
  aggregationQuerystring,
  type CollectionSpec,
} from "../../aggregation";
import { currentAdmin, type RouteAccess } from "../../auth/access";
import { readOr404 } from "./record";
import type { ModuleRoute, RouteContext } from "./route";

type Route<K extends ModuleRoute["kind"]> = Extract<ModuleRoute, { kind: K }>;

/** What a list route's documentation says: which list, and the allow-list its fields have. */
interface ListDoc {
  summary: string;
  fields: Pick<ModuleDecl, "fields">;
  collection: CollectionSpec;
}

/**
 * The options of a route that serves one page of a list under the aggregation contract: its
 * access, the query's pre-validation, and the schema (with `params` where the URL has any).
 */
function aggregationRoute<P extends object, R extends object>(
  route: { access: RouteAccess },
  tags: string[],
  doc: ListDoc,
  params: P,
  response: R,
) {
  return {
    config: { access: route.access },
    preValidation: aggregationPreValidation,
    schema: {
      tags,
      summary: doc.summary,
      description: listDescription(doc.fields),
      "x-aggregation": aggregationExtension(doc.collection),
      ...params,
      querystring: aggregationQuerystring,
      response,
    },
  };
}

/** `GET …/aggregation` (or the module's listPath): one page of the module's list. */
export function registerList({ api, db, bound, tags }: RouteContext, route: Route<"list">): void {
  const { module } = bound;
  api.get(
    route.url,
    aggregationRoute(
      route,
      tags,
      {
        summary: `List ${module.thing.many} (aggregation contract)`,
        fields: module,
        collection: bound.collection,
      },
      {},
      {
        200: aggregationListSchema(module.queryName, module.item, module.totals),
        ...errorResponses(400, 401, 403),
      },
    ),
    // A computed key widens to `string` for TypeScript; the serializer checks the answer.
    async (request) => (await bound.list(db, request.query, currentAdmin(request))) as never,
  );
}

/** `GET …/{id}/<path>`: one page of a related list of one record (404 for an unknown record). */
export function registerRelated(context: RouteContext, route: Route<"related">): void {
  const { api, db, bound, tags } = context;
  const { module } = bound;
  const reader = bound.related[route.name]!;
  const decl = module.related![route.name]!;
  api.get(
    route.url,
    aggregationRoute(
      route,
      tags,
      {
        summary: `The ${decl.queryName} of one ${module.thing.one} (aggregation contract)`,
        fields: decl,
        collection: reader.collection,
      },
      { params: idParamsSchema },
      {
        200: aggregationListSchema(decl.queryName, decl.item),
        ...errorResponses(400, 401, 403, 404),
      },
    ),
    async (request) => {
      await readOr404(context, request, request.params.id);
      return (await reader.list(db, request.params.id, request.query)) as never;
    },
  );
}

function listDescription(module: Pick<ModuleDecl, "fields">): string {
  const flagged = (flag: keyof FieldDecl) =>
    Object.entries(module.fields)
      .filter(([, decl]) => decl[flag])
      .map(([key]) => key)
      .join(", ") || "none";
  return (
    `Filterable: ${flagged("filter")}. Sortable: ${flagged("sort")}. ` +
    `$search matches: ${flagged("search")}. Page size at most ${AGGREGATION_LIMITS.maxPageSize}.`
  );
}

/**
 * The list's allow-list in machine-readable form (the OpenAPI extension `x-aggregation`): each
 * filterable field's kind (the declaration's filter kind, and the values of a choice), the
 * sortable and searchable fields, so a generated client or a fuzzer knows what the server
 * accepts and what it refuses.
 */
function aggregationExtension(collection: CollectionSpec) {
  const fields = Object.entries(collection.fields);
  const named = (flag: "sortable" | "searchable") =>
    fields.filter(([, spec]) => spec[flag]).map(([key]) => key);
  return {
    filterable: Object.fromEntries(
      fields
        .filter(([, spec]) => spec.filterable)
        .map(([key, spec]) => [
          key,
          spec.values ? { type: spec.type, values: spec.values } : { type: spec.type },
        ]),
    ),
    sortable: named("sortable"),
    searchable: named("searchable"),
    maxPageSize: AGGREGATION_LIMITS.maxPageSize,
    maxPage: AGGREGATION_LIMITS.maxPage,
  };
}
