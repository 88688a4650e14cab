/**
 * The server's reader of a module declaration (src/shared/kit): binds it to a Drizzle table
 * (joins allowed) and registers its routes: the aggregation list, one record, and each action,
 * with the module's permission checks, zod validation, OpenAPI entries, and the action's audit
 * entry written in the same transaction as the change. Business rules stay in the module's
 * service functions, which the action routes call inside that transaction.
 */
import { and, eq, getTableName, inArray, is, sql, SQL } from "drizzle-orm";
import { PgColumn, type AnyPgColumn, type PgTable } from "drizzle-orm/pg-core";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { z } from "zod";

import {
  filterKindsOf,
  type ActionDecl,
  type FieldDecl,
  type FilterKind,
  type FormDecl,
  type ItemOf,
  type ModuleDecl,
} from "../../src/shared/kit/module";
import { aggregationListSchema } from "../../src/shared/kit/list";
import {
  AGGREGATION_LIMITS,
  aggregationPreValidation,
  aggregationQuerystring,
  runAggregation,
  type AggregationSource,
  type CollectionSpec,
  type FieldSpec,
  type Join,
  type RawAggregationQuery,
} from "../aggregation";
import { listAudit, recordAudit } from "../audit";
import { currentAdmin, type RouteAccess } from "../auth/access";
import type { Db, DbOrTx, Tx } from "../db";
import { preparedQuery } from "../db/prepared";
import { administrators, type AdministratorRow } from "../db/schema";
import { conflict, notFound } from "../errors";
import { errorResponses, idParamsSchema } from "../../src/shared/schemas/common";
import {
  optionsListSchema,
  optionsQuerySchema,
  type OptionsQuery,
} from "../../src/shared/kit/options";
import { escapeLike } from "../aggregation/filter";
import { auditListSchema, auditQuerySchema } from "../../src/shared/schemas/user-actions";

type Item = Record<string, unknown>;

export interface ActionContext<Body> {
  actor: AdministratorRow;
  id: number;
  body: Body;
  /** The record as it was, read under a row lock after the action's guard passed. */
  before: Item;
}

/** An action's business rules: writes inside the kit's transaction; the kit audits after. */
export type ActionHandler<Body = never> = (tx: Tx, context: ActionContext<Body>) => Promise<void>;

/** A create form's business rules: inserts inside the kit's transaction, answers the new id. */
export type CreateHandler<Body = never> = (
  tx: Tx,
  context: { actor: AdministratorRow; body: Body },
) => Promise<number>;

export interface ModuleBinding<M extends ModuleDecl> {
  /** The collection's own table; its `id` column identifies a record. */
  table: PgTable & { id: AnyPgColumn };
  joins?: readonly Join[];
  /** Columns of fields the table does not have under the field's name (joined or computed). */
  columns?: Partial<Record<keyof M["fields"] & string, AnyPgColumn | SQL>>;
  /** The trigram-indexed search key of every searchable field (see CollectionSpec). */
  searchKey?: CollectionSpec["searchKey"];
  /** The searchable fields are codes told apart by their tails (see CollectionSpec). */
  searchTail?: number;
  /** A whole code found through its own index (see CollectionSpec). */
  searchExact?: CollectionSpec["searchExact"];
  /** The condition of the module's scope (required when it declares one). */
  scope?: SQL;
  /** Whether to register `GET /api/{collection}/{id}` (default: yes). */
  show?: boolean;
  actions?: { [A in keyof M["actions"]]: ActionHandler<z.output<M["actions"][A]["body"]>> };
  /** The rules of the declaration's create form (required when it declares one). */
  create?: CreateHandler<FormBody<M["create"]>>;
  /** The rules of the declaration's edit form: the kit has locked the record and checked `when`. */
  edit?: ActionHandler<FormBody<M["edit"]>>;
  /** The tables of the declaration's related lists, by key. */
  related?: Readonly<Record<string, RelatedBinding>>;
  /** Where each `record` filter's choices come from, by field (required for each). */
  options?: Partial<Record<keyof M["fields"] & string, OptionsBinding>>;
  /**
   * The list's totals by a cheaper statement than summing the filtered rows, for the queries it
   * can answer (one row, a column per key of the declaration's `totals`); undefined for any other
   * query, which the kit sums. The query has passed the list's checks when it is called.
   */
  totalsOf?: (raw: RawAggregationQuery) => SQL | undefined;
}

/** The records a `record` filter chooses from: their id and the name staff know them by. */
export interface OptionsBinding {
  table: PgTable;
  value: AnyPgColumn;
  label: AnyPgColumn;
}

/** How many choices a `record` filter's options route answers at most. */
export const OPTIONS_LIMIT = 20;

/** Where a related list's rows live: `parent` holds the id of the record they belong to. */
export interface RelatedBinding {
  table: PgTable & { id: AnyPgColumn };
  joins?: readonly Join[];
  columns?: Readonly<Record<string, AnyPgColumn | SQL>>;
  parent: AnyPgColumn;
  /** Only rows meeting this condition belong (payments, not every ledger row). */
  scope?: SQL;
}

/** A column of the name of the administrator whose id `idColumn` holds (null when none). */
export const adminNameOf = (idColumn: AnyPgColumn) =>
  sql<string | null>`(select ${administrators.name} from ${administrators}
    where ${administrators.id} = ${idColumn})`;

/** What the kit's readers need of a list's declaration: a module's, or a related list's. */
type Listed = Pick<ModuleDecl, "name" | "fields" | "queryName" | "defaultSort">;

type FormBody<F> = F extends FormDecl<infer B> ? z.output<B> : never;

/** What a route needs from the declaration's permission. */
function accessOf(permission: ModuleDecl["permission"], thing: string): RouteAccess {
  return permission === null ? "session" : { permission, thing };
}

const FILTER_TYPES: Record<FilterKind, FieldSpec["type"]> = {
  text: "string",
  choice: "enum",
  boolean: "boolean",
  dateRange: "date",
  numberRange: "number",
  record: "number",
};

function fail(module: Pick<ModuleDecl, "name">, what: string): never {
  throw new Error(`Module "${module.name}": ${what}`);
}

/** Each field's column: the binding's, else the table's column of the same name. */
function columnsOf(
  module: Listed,
  binding: { table: PgTable; columns?: Readonly<Record<string, AnyPgColumn | SQL | undefined>> },
) {
  const table = binding.table as unknown as Record<string, unknown>;
  const explicit = (binding.columns ?? {}) as Record<string, AnyPgColumn | SQL | undefined>;
  return Object.fromEntries(
    Object.keys(module.fields).map((key) => {
      const column = explicit[key] ?? table[key];
      if (!is(column, PgColumn) && !is(column, SQL)) {
        fail(module, `field "${key}" has no column in table "${getTableName(binding.table)}"`);
      }
      return [key, column as AnyPgColumn | SQL];
    }),
  );
}

/** The aggregation compiler's allow-list, from the fields' filter, sort and search flags. */
export function collectionSpecOf(
  module: Listed,
  columns: Record<string, AnyPgColumn | SQL>,
  binding: {
    table: PgTable & { id: AnyPgColumn };
    searchKey?: CollectionSpec["searchKey"];
    searchTail?: number;
    searchExact?: CollectionSpec["searchExact"];
  },
): CollectionSpec {
  const fields: Record<string, FieldSpec> = {};
  for (const [key, decl] of Object.entries(module.fields) as Array<[string, FieldDecl]>) {
    if (!decl.filter && !decl.sort && !decl.search) continue;
    const kind = decl.filter ?? filterKindsOf(decl.schema)[0];
    if (!kind) fail(module, `field "${key}" has a type the list cannot sort or search`);
    fields[key] = {
      column: columns[key] as AnyPgColumn | SQL,
      type: FILTER_TYPES[kind],
      filterable: decl.filter !== undefined,
      sortable: decl.sort === true,
      searchable: decl.search === true,
    };
    const values = kind === "choice" ? enumValues(decl) : undefined;
    if (values) fields[key].values = values;
  }
  return {
    queryName: module.queryName,
    fields,
    defaultSort: module.defaultSort.map(([key, order]) => [key, order === "asc" ? 1 : -1]),
    tieBreaker: binding.table.id,
    searchKey: binding.searchKey,
    searchTail: binding.searchTail,
    searchExact: binding.searchExact,
  };
}

function enumValues(decl: FieldDecl): readonly string[] | undefined {
  let inner = decl.schema as z.ZodType & { unwrap?: () => z.ZodType; options?: string[] };
  while (typeof inner.unwrap === "function" && inner.options === undefined) {
    inner = inner.unwrap() as typeof inner;
  }
  return inner.options;
}

/**
 * A row as the module's record: Drizzle reads instants as dates, the API shows them as ISO-8601
 * text; columns the record does not declare are left out.
 */
export function toItem<M extends ModuleDecl>(module: M, row: object): ItemOf<M> {
  return toRecord(module, row as Item) as ItemOf<M>;
}

function toRecord(module: Pick<ModuleDecl, "item">, row: Item): Item {
  const item: Item = {};
  for (const key of Object.keys(module.item.shape)) {
    const value = row[key];
    item[key] = value instanceof Date ? value.toISOString() : value;
  }
  return item;
}

/** What the audit trail keeps of a record: its fields but the id and the timestamps. */
function auditSnapshot(item: Item): Item {
  const { id: _id, createdAt: _created, updatedAt: _updated, ...snapshot } = item;
  return snapshot;
}

export interface BoundModule {
  module: ModuleDecl;
  binding: ModuleBinding<ModuleDecl>;
  collection: CollectionSpec;
  /** One page of the module's list (its scope applied) under the aggregation contract. */
  list(db: DbOrTx, raw: RawAggregationQuery): Promise<Record<string, unknown>>;
  /** One record as the API shows it, or undefined. */
  read(db: DbOrTx, id: number): Promise<Item | undefined>;
  /** One page of a related list (by key) of one record, under the aggregation contract. */
  related: Readonly<Record<string, RelatedReader>>;
}

interface RelatedReader {
  collection: CollectionSpec;
  list(db: DbOrTx, id: number, raw: RawAggregationQuery): Promise<Record<string, unknown>>;
}

/** A related list bound to its table: its rows of one record, paged, sorted and filtered. */
function bindRelated(owner: ModuleDecl, key: string, binding?: RelatedBinding): RelatedReader {
  const decl = owner.related?.[key];
  const name = `${owner.name}.related.${key}`;
  if (!decl || !binding) fail(owner, `related list "${key}" has no table`);
  const listed = { name, ...decl };
  const columns = columnsOf(listed, binding);
  const collection = collectionSpecOf(listed, columns, binding);
  const source: AggregationSource = {
    table: binding.table,
    joins: binding.joins,
    select: Object.fromEntries(
      Object.keys(decl.item.shape).map((field) => [field, columns[field]!]),
    ),
  };
  return {
    collection,
    async list(db, id, raw) {
      const { rows, ...total } = await runAggregation<Item>(db, collection, source, raw, {
        baseWhere: and(eq(binding.parent, id), binding.scope),
      });
      return { ...total, [decl.queryName]: rows.map((row) => toRecord(decl, row)) };
    },
  };
}

/**
 * Binds a declaration to its table. Everything the declaration and the binding disagree on (a
 * field without a column, a scope without a condition, an action without its rules) throws
 * here, when the server starts, naming the module and the field.
 */
export function bindModule<M extends ModuleDecl>(
  module: M,
  binding: ModuleBinding<M>,
): BoundModule {
  const columns = columnsOf(module, binding);
  const collection = collectionSpecOf(module, columns, binding);
  if (module.scope && !binding.scope) fail(module, `scope "${module.scope}" has no condition`);
  const handlers = (binding.actions ?? {}) as Record<string, ActionHandler<unknown> | undefined>;
  for (const name of Object.keys(module.actions)) {
    if (!handlers[name]) fail(module, `action "${name}" has no handler`);
  }
  if (module.create && !binding.create) fail(module, "its create form has no handler");
  if (module.edit && !binding.edit) fail(module, "its edit form has no handler");
  for (const [key, decl] of Object.entries(module.fields)) {
    if (decl.filter === "record" && !binding.options?.[key]) {
      fail(module, `field "${key}" is a record filter without options`);
    }
  }
  for (const key of Object.keys(binding.related ?? {})) {
    if (!module.related?.[key])
      fail(module, `binds related list "${key}", which it does not declare`);
  }
  const related = Object.fromEntries(
    Object.keys(module.related ?? {}).map((key) => [
      key,
      bindRelated(module, key, binding.related?.[key]),
    ]),
  );
  // What a record is: every field but the filter-only ones.
  const selection = Object.fromEntries(
    Object.keys(module.item.shape).map((key) => [key, columns[key]!]),
  );
  const source: AggregationSource = {
    table: binding.table,
    joins: binding.joins,
    select: selection,
  };
  const totals = module.totals?.length
    ? Object.fromEntries(module.totals.map((key) => [key, columns[key]!]))
    : undefined;

  const readStatement = preparedQuery((db) => {
    let query = db.select(selection).from(binding.table).$dynamic();
    for (const join of binding.joins ?? []) query = query.innerJoin(join.table, join.on);
    // A scoped module reaches only the records inside its scope (a top-up, not any ledger row).
    const byId = eq(binding.table.id, sql.placeholder("id"));
    return query.where(binding.scope ? and(byId, binding.scope) : byId);
  });
  const read = async (db: DbOrTx, id: number) => {
    const [row] = await readStatement(db, { id });
    return row ? toRecord(module, row) : undefined;
  };

  return {
    module,
    binding: binding as unknown as ModuleBinding<ModuleDecl>,
    collection,
    read,
    related,
    async list(db, raw) {
      const { rows, ...total } = await runAggregation<Item>(db, collection, source, raw, {
        baseWhere: binding.scope,
        totals,
        totalsOf: binding.totalsOf,
      });
      return { ...total, [module.queryName]: rows.map((row) => toRecord(module, row)) };
    },
  };
}

/** One route a bound module serves (relative to the API prefix). */
export type ModuleRoute =
  | { kind: "list"; method: "GET"; url: string; access: RouteAccess }
  | { kind: "show"; method: "GET"; url: string; access: RouteAccess }
  | {
      kind: "action";
      method: "PATCH" | "POST";
      url: string;
      access: RouteAccess;
      name: string;
      action: ActionDecl;
    }
  | { kind: "history"; method: "GET"; url: string; access: RouteAccess }
  | { kind: "related"; method: "GET"; url: string; access: RouteAccess; name: string }
  | { kind: "options"; method: "GET"; url: string; access: RouteAccess; name: string }
  | { kind: "create"; method: "POST"; url: string; access: RouteAccess; form: FormDecl }
  | { kind: "edit"; method: "PATCH"; url: string; access: RouteAccess; form: FormDecl };

/**
 * The routes a bound module serves, one list for the registration and for the tests that go
 * through every route (the conformance suite, the authorisation matrix).
 */
export function moduleRoutes(bound: BoundModule): ModuleRoute[] {
  const { module, binding } = bound;
  const routes: ModuleRoute[] = [];
  // A view without a path of its own reads the list of the module it views.
  if (!module.viewOf || module.listPath !== undefined) {
    routes.push({
      kind: "list",
      method: "GET",
      url: module.listPath ?? `/api/${module.collection}/aggregation`,
      access: accessOf(module.permission, module.thing.many),
    });
  }
  for (const [name, decl] of Object.entries(module.fields)) {
    if (decl.filter !== "record") continue;
    routes.push({
      kind: "options",
      method: "GET",
      url: `/api/${module.collection}/options/${name}`,
      access: accessOf(module.permission, module.thing.many),
      name,
    });
  }
  if (binding.show !== false) {
    routes.push({
      kind: "show",
      method: "GET",
      url: `/api/${module.collection}/:id`,
      access: accessOf(module.permission, `Single ${module.thing.one}`),
    });
    // Every change the kit makes is audited; its detail page shows them.
    routes.push({
      kind: "history",
      method: "GET",
      url: `/api/${module.collection}/:id/audit`,
      access: accessOf(module.permission, `${module.thing.one} History`),
    });
    for (const [name, list] of Object.entries(module.related ?? {})) {
      routes.push({
        kind: "related",
        method: "GET",
        url: `/api/${module.collection}/:id/${list.path}`,
        access: accessOf(module.permission, `${module.thing.one} ${list.queryName}`),
        name,
      });
    }
  }
  for (const [name, action] of Object.entries(module.actions)) {
    routes.push({
      kind: "action",
      method: action.method,
      url: `/api/${module.collection}/:id${action.path ? `/${action.path}` : ""}`,
      access: accessOf(action.permission ?? module.permission, module.thing.one),
      name,
      action,
    });
  }
  if (module.create) {
    routes.push({
      kind: "create",
      method: "POST",
      url: `/api/${module.collection}`,
      access: accessOf(module.create.permission ?? module.permission, module.thing.one),
      form: module.create,
    });
  }
  if (module.edit) {
    routes.push({
      kind: "edit",
      method: "PATCH",
      url: `/api/${module.collection}/:id`,
      access: accessOf(module.edit.permission ?? module.permission, module.thing.one),
      form: module.edit,
    });
  }
  const seen = new Set<string>();
  for (const route of routes) {
    const key = `${route.method} ${route.url}`;
    if (seen.has(key)) fail(module, `two routes answer ${key}`);
    seen.add(key);
  }
  return routes;
}

/** Registers a bound module's routes on `app` (under the API prefix). */
export function registerModuleRoutes(app: FastifyInstance, db: Db, bound: BoundModule): void {
  const { module, binding } = bound;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = [module.name];
  const handlers = (binding.actions ?? {}) as Record<string, ActionHandler<unknown>>;

  for (const route of moduleRoutes(bound)) {
    const config = { access: route.access };
    if (route.kind === "list") {
      api.get(
        route.url,
        {
          config,
          preValidation: aggregationPreValidation,
          schema: {
            tags,
            summary: `List ${module.thing.many} (aggregation contract)`,
            description: listDescription(module),
            "x-aggregation": aggregationExtension(bound.collection),
            querystring: aggregationQuerystring,
            response: {
              200: aggregationListSchema(module.queryName, module.item, module.totals),
              ...errorResponses(400, 401, 403),
            },
          },
        },
        // A computed key widens to `string` for TypeScript; the serializer checks the answer.
        async (request) => (await bound.list(db, request.query)) as never,
      );
    } else if (route.kind === "show") {
      api.get(
        route.url,
        {
          config,
          schema: {
            tags,
            summary: `One ${module.thing.one}`,
            params: idParamsSchema,
            response: { 200: module.item, ...errorResponses(400, 401, 403, 404) },
          },
        },
        async (request) => {
          const item = await bound.read(db, request.params.id);
          if (!item) throw notFound(module.thing.one);
          return item;
        },
      );
    } else if (route.kind === "history") {
      api.get(
        route.url,
        {
          config,
          schema: {
            tags,
            summary: `The audit entries about one ${module.thing.one}, newest first`,
            params: idParamsSchema,
            querystring: auditQuerySchema,
            response: { 200: auditListSchema, ...errorResponses(400, 401, 403, 404) },
          },
        },
        async (request) => {
          // Through the module's own read, so a scoped module answers only its own records.
          if (!(await bound.read(db, request.params.id))) throw notFound(module.thing.one);
          return listAudit(db, getTableName(binding.table), request.params.id, request.query);
        },
      );
    } else if (route.kind === "options") {
      const options = binding.options![route.name]!;
      api.get(
        route.url,
        {
          config,
          schema: {
            tags,
            summary: `Choices of the ${route.name} filter of ${module.thing.many}`,
            description:
              `Up to ${OPTIONS_LIMIT} by name: those whose name contains \`search\`, or those ` +
              "with the ids in `ids` (comma-separated), to name a filter already chosen.",
            querystring: optionsQuerySchema,
            response: { 200: optionsListSchema, ...errorResponses(400, 401, 403) },
          },
        },
        async (request) => ({ options: await listOptions(db, options, request.query) }),
      );
    } else if (route.kind === "related") {
      const reader = bound.related[route.name]!;
      const decl = module.related![route.name]!;
      api.get(
        route.url,
        {
          config,
          preValidation: aggregationPreValidation,
          schema: {
            tags,
            summary: `The ${decl.queryName} of one ${module.thing.one} (aggregation contract)`,
            description: listDescription(decl),
            "x-aggregation": aggregationExtension(reader.collection),
            params: idParamsSchema,
            querystring: aggregationQuerystring,
            response: {
              200: aggregationListSchema(decl.queryName, decl.item),
              ...errorResponses(400, 401, 403, 404),
            },
          },
        },
        async (request) => {
          if (!(await bound.read(db, request.params.id))) throw notFound(module.thing.one);
          return (await reader.list(db, request.params.id, request.query)) as never;
        },
      );
    } else if (route.kind === "action" || route.kind === "edit") {
      // An action and the edit form are both one change of one record (runChange).
      const change =
        route.kind === "action"
          ? {
              handler: handlers[route.name]!,
              body: route.action.body,
              summary: actionSummary(module, route.action),
              when: route.action.when,
              conflictCode: route.action.conflictCode,
              remarkField: route.action.input.name,
              audit: (body: { action?: string }) =>
                `${route.action.audit}.${route.action.kind === "decision" ? body.action : route.action.verbs[0]}`,
            }
          : {
              handler: binding.edit as ActionHandler<unknown>,
              body: route.form.body,
              summary: `Change a ${module.thing.one}`,
              when: route.form.when ?? {},
              conflictCode: route.form.conflictCode ?? "CONFLICT",
              remarkField: "remark",
              audit: () => `${route.form.audit}.update`,
            };
      api.route({
        method: route.method,
        url: route.url,
        config,
        schema: {
          tags,
          summary: change.summary,
          description: `409 ${change.conflictCode} when the record is not ${guardText(change.when) || "changeable"}.`,
          params: idParamsSchema,
          body: change.body,
          response: { 200: module.item, ...errorResponses(400, 401, 403, 404, 409) },
        },
        handler: async (request) => {
          const body = request.body as { action?: string };
          return runChange(db, bound, change.handler, {
            actor: currentAdmin(request),
            id: request.params.id,
            body,
            when: change.when,
            conflictCode: change.conflictCode,
            remark: textOf(body, change.remarkField),
            audit: change.audit(body),
          });
        },
      });
    } else {
      const { form } = route;
      const handler = binding.create as CreateHandler<unknown>;
      api.post(
        route.url,
        {
          config,
          schema: {
            tags,
            summary: `Add a ${module.thing.one}`,
            body: form.body,
            response: { 201: module.item, ...errorResponses(400, 401, 403, 404, 409) },
          },
        },
        async (request, reply) => {
          const actor = currentAdmin(request);
          const created = await db.transaction(async (tx) => {
            const id = await handler(tx, { actor, body: request.body });
            const after = await bound.read(tx, id);
            if (!after) throw notFound(module.thing.one);
            await recordAudit(tx, {
              adminId: actor.id,
              action: `${form.audit}.create`,
              targetTable: getTableName(binding.table),
              targetId: id,
              remark: textOf(request.body, "remark"),
              before: null,
              after: auditSnapshot(after),
            });
            return after;
          });
          return reply.code(201).send(created);
        },
      );
    }
  }
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
 * filterable field's type (and values of a choice), the sortable and searchable fields, so a
 * generated client or a fuzzer knows what the server accepts and what it refuses.
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

const guardText = (when: ActionDecl["when"]) =>
  Object.entries(when)
    .map(([key, values]) => `${key} ${values.join(" or ")}`)
    .join(" and ");

function actionSummary(module: ModuleDecl, action: ActionDecl): string {
  return action.kind === "decision"
    ? `Approve or reject a ${module.thing.one} (${guardText(action.when)}), with a remark`
    : `${action.verbs[0]} a ${module.thing.one} (${guardText(action.when)}), with a ${action.input.name}`;
}

/** The text a change's body holds under `key` (its remark, a bank reference), for the audit. */
const textOf = (body: unknown, key: string) => {
  const value = typeof body === "object" && body !== null ? (body as Item)[key] : undefined;
  return typeof value === "string" ? value : null;
};

/**
 * One change of one record in one transaction: lock the record, check the guard (409 with its
 * code), run the module's rules, read the record again and write the audit entry.
 */
function runChange(
  db: Db,
  bound: BoundModule,
  handler: ActionHandler<unknown>,
  context: Omit<ActionContext<unknown>, "before"> &
    ChangeGuard & { audit: string; remark: string | null },
): Promise<Item> {
  return db.transaction((tx) =>
    changeRecord(tx, bound, context, (before) =>
      handler(tx, { actor: context.actor, id: context.id, body: context.body, before }),
    ),
  );
}

interface ChangeGuard {
  /** The records the change applies to: field → allowed values (others: 409 `conflictCode`). */
  when: Readonly<Record<string, readonly string[]>>;
  conflictCode: string;
}

/**
 * Changes one record of a bound module inside the caller's transaction, as the kit does: locks
 * it, checks the guard, runs `change`, reads it again and writes `audit` with before and after.
 * An action of one module that changes a record of another (approving a business update
 * changes the business) goes through here, so the other record's history shows the change.
 */
export async function changeRecord(
  tx: Tx,
  bound: BoundModule,
  context: Partial<ChangeGuard> & {
    actor: AdministratorRow;
    id: number;
    audit: string;
    remark: string | null;
  },
  change: (before: Item) => Promise<void>,
): Promise<Item> {
  const { module, binding } = bound;
  const table = binding.table;
  const [locked] = await tx
    .select({ id: table.id })
    .from(table)
    .where(eq(table.id, context.id))
    .for("update");
  const thing = (module.viewOf ?? module).thing.one;
  const before = locked && (await bound.read(tx, context.id));
  if (!before) throw notFound(thing);
  for (const [key, allowed] of Object.entries(context.when ?? {})) {
    const value = before[key];
    if (!allowed.includes(String(value))) {
      throw conflict(
        context.conflictCode ?? "CONFLICT",
        `This ${thing.toLowerCase()} is ${String(value)}, not ${allowed.join(" or ")}`,
        { [key]: value },
      );
    }
  }
  await change(before);
  const after = await bound.read(tx, context.id);
  if (!after) throw notFound(thing);
  await recordAudit(tx, {
    adminId: context.actor.id,
    action: context.audit,
    targetTable: getTableName(table),
    targetId: context.id,
    remark: context.remark,
    before: auditSnapshot(before),
    after: auditSnapshot(after),
  });
  return after;
}

/** A record filter's choices: by name, or the ones with the given ids; by name, at most 20. */
async function listOptions(db: Db, options: OptionsBinding, query: OptionsQuery) {
  const where =
    query.ids !== undefined
      ? inArray(options.value, query.ids.split(",").map(Number))
      : query.search
        ? sql`${options.label} ilike ${`%${escapeLike(query.search)}%`}`
        : undefined;
  return db
    .select({ value: options.value, label: options.label })
    .from(options.table)
    .where(where)
    .orderBy(options.label, options.value)
    .limit(OPTIONS_LIMIT) as Promise<Array<{ value: number; label: string }>>;
}
