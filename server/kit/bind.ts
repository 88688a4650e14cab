/**
 * The server's reader of a module declaration (src/shared/kit): binds it to a Drizzle table
 * (joins allowed), checks that the declaration and the binding agree, and reads its lists and
 * records. Its routes are registered from the bound module by server/kit/routes/; a change of a
 * record goes through changeRecord (server/kit/change.ts). Business rules stay in the module's
 * home (server/modules/<module>/), whose handlers the kit calls inside its transaction.
 */
import { and, eq, getTableName, is, sql, SQL } from "drizzle-orm";
import { PgColumn, type AnyPgColumn, type PgTable } from "drizzle-orm/pg-core";
import type { FastifyBaseLogger } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { z } from "zod";

import {
  enumValuesOf,
  filterKindsOf,
  type FieldDecl,
  type FormDecl,
  type ItemOf,
  type ModuleDecl,
} from "../../src/shared/kit/module";
import { isVersioned, VERSION_FIELD } from "../../src/shared/kit/versions";
import {
  runAggregation,
  type AggregationSource,
  type CollectionSpec,
  type FieldSpec,
  type Join,
  type RawAggregationQuery,
} from "../aggregation";
import type { Db, DbOrTx, Tx } from "../db";
import { preparedQuery } from "../db/prepared";
import { administrators, type AdministratorRow } from "../db/schema";
import type { RouteDeps } from "../http/deps";

type Item = Record<string, unknown>;

export interface ActionContext<Body> {
  actor: AdministratorRow;
  id: number;
  body: Body;
  /** The record as it was, read under a row lock after the action's guard passed. */
  before: Item;
}

/**
 * An action's business rules: writes inside the kit's transaction; the kit audits after. What it
 * returns reaches the binding's `after` (a reset link's token, to be e-mailed once committed).
 */
export type ActionHandler<Body = never, Result = unknown> = (
  tx: Tx,
  context: ActionContext<Body>,
) => Promise<Result>;

/**
 * An action whose change lands on a record of another table that belongs to the module's own
 * (the declaration's `of`: a user's agent terms, a user's rider facts): the kit locks the
 * module's record, 404s (naming the `of` thing) when `record` finds nothing, checks the guard on
 * the module's record with that record's fields over it, and the audit entry keeps that
 * record's before and after. `answer` is what the action's aliases answer (and its schema) when
 * the declaration's alias makes none (the seed's agent calls answer the user's whole detail).
 */
export interface ActionBinding<Body = never, Result = unknown> {
  run: ActionHandler<Body, Result>;
  /** Reads the declaration's `of` record of the module's record `id` (required with one). */
  record?: (tx: Tx, id: number) => Promise<Item | undefined>;
  answer?: { response: z.ZodType; read: (db: DbOrTx, id: number) => Promise<unknown> };
  /**
   * The action's work outside the database, once its transaction has committed, given what `run`
   * returned (a link's token, which is e-mailed and never stored): its answer is the body of the
   * declaration's `answer` (required with one). A failure here leaves the change made.
   */
  // Methods, not properties: a binding's own result type stays assignable to the kit's.
  after?(result: Result, deps: ActionEffectDeps): Promise<unknown>;
  /**
   * What the audit entry keeps, from what `run` returned, when the change lies outside the record
   * (a link issued: its address and expiry); without it, the record's before and after.
   */
  audit?(result: Result): { before?: Item; after: Item };
  /**
   * Keeps why the change was refused (its transaction rolled back), outside that transaction: a
   * change request shows why its approval failed.
   */
  refused?(db: Db, id: number, error: unknown): Promise<void>;
}

/** What an action's effect is given: the app's route deps and the request's log. */
export type ActionEffectDeps = RouteDeps & { log: FastifyBaseLogger };

/** A binding's action as the kit runs it, whether given as a handler or an ActionBinding. */
export const actionBindingOf = (
  value: ActionHandler<never> | ActionBinding<never>,
): ActionBinding<unknown> =>
  (typeof value === "function" ? { run: value } : value) as ActionBinding<unknown>;

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
  /**
   * What the list filters and sorts a field by, when not what the record reads: a stored status
   * an index covers, where the record reads an expression over it (a change request past its
   * time reads expired before the expiry job stores it).
   */
  listColumns?: Partial<Record<keyof M["fields"] & string, AnyPgColumn>>;
  /** The trigram-indexed search key of every searchable field (see CollectionSpec). */
  searchKey?: CollectionSpec["searchKey"];
  /** The searchable fields are codes told apart by their tails (see CollectionSpec). */
  searchTail?: number;
  /** A whole code found through its own index (see CollectionSpec). */
  searchExact?: CollectionSpec["searchExact"];
  /** The condition of the module's scope (required when it declares one). */
  scope?: SQL;
  /**
   * The rows the signed-in administrator may see, when that depends on who they are (the audit
   * log: entries of the areas whose codes they hold): a condition added to the scope of the list
   * (its totals too) and of each record read through the module's routes.
   */
  scopeFor?: (actor: AdministratorRow) => SQL | undefined;
  /** Whether to register `GET /api/{collection}/{id}` (default: yes). */
  show?: boolean;
  actions?: {
    [A in keyof M["actions"]]:
      | ActionHandler<z.output<M["actions"][A]["body"]>>
      | ActionBinding<z.output<M["actions"][A]["body"]>>;
  };
  /** The rules of the declaration's create form (required when it declares one). */
  create?: CreateHandler<FormBody<M["create"]>>;
  /**
   * What a change request keeps of a body that waits for a second approver (four eyes), when not
   * the body itself: an administrator's initial password as its hash, never the password. The
   * approval hands the handler what this answers.
   */
  heldBody?: (change: string, body: unknown) => Promise<unknown>;
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
  /**
   * The module's routes the kit does not draw from the declaration (an import, a run, a PDF, the
   * wallet app's read): a Fastify plugin the kit registers with the others, given the app's
   * route deps and this bound module (`bound`). Each of its routes gets the module's permission
   * as its access and the module's OpenAPI tag unless it states its own, and the usual
   * validation; a route that changes something writes its own audit entry.
   */
  endpoints?: ModuleEndpoints;
}

/** What a module's endpoints plugin is given: the app's route deps and its own bound module. */
export type EndpointDeps = RouteDeps & { bound: BoundModule };

/** A module's own routes (see ModuleBinding.endpoints). */
export type ModuleEndpoints = FastifyPluginAsyncZod<EndpointDeps>;

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

export function fail(module: Pick<ModuleDecl, "name">, what: string): never {
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
    listColumns?: Readonly<Record<string, AnyPgColumn | undefined>>;
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
      column: binding.listColumns?.[key] ?? (columns[key] as AnyPgColumn | SQL),
      type: kind,
      filterable: decl.filter !== undefined,
      sortable: decl.sort === true,
      searchable: decl.search === true,
    };
    const values = kind === "choice" ? enumValuesOf(decl.schema) : undefined;
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

/**
 * A row as the module's record: Drizzle reads instants as dates, the API shows them as ISO-8601
 * text; columns the record does not declare are left out.
 */
export function toItem<M extends ModuleDecl>(module: M, row: object): ItemOf<M> {
  return toRecord(module, row as Item) as ItemOf<M>;
}

export function toRecord(module: Pick<ModuleDecl, "item">, row: Item): Item {
  const item: Item = {};
  for (const key of Object.keys(module.item.shape)) {
    const value = row[key];
    item[key] = value instanceof Date ? value.toISOString() : value;
  }
  return item;
}

/**
 * The `version` column of a versioned module's table (docs/versions.md): a module with an edit
 * form or actions needs one (`version integer NOT NULL DEFAULT 1`), else the server does not start.
 */
export function versionColumnOf(module: Pick<ModuleDecl, "name">, table: PgTable): AnyPgColumn {
  const column = (table as unknown as Record<string, unknown>)[VERSION_FIELD];
  if (!is(column, PgColumn)) {
    fail(module, `its records are versioned but table "${getTableName(table)}" has no "version"`);
  }
  return column as AnyPgColumn;
}

/** Set by bindModule on every bound module, so discovery finds them among a home's exports. */
export const BOUND = Symbol.for("ucsi.kit.bound");

/** Whether a value is a module bound by bindModule. */
export function isBoundModule(value: unknown): value is BoundModule {
  return typeof value === "object" && value !== null && BOUND in value;
}

export interface BoundModule {
  readonly [BOUND]: true;
  module: ModuleDecl;
  binding: ModuleBinding<ModuleDecl>;
  collection: CollectionSpec;
  /**
   * One page of the module's list (its scope applied, and the viewer's: scopeFor) under the
   * aggregation contract.
   */
  list(db: DbOrTx, raw: RawAggregationQuery, viewer?: AdministratorRow): Promise<Item>;
  /** One record as the API shows it (to `viewer`, when given: scopeFor), or undefined. */
  read(db: DbOrTx, id: number, viewer?: AdministratorRow): Promise<Item | undefined>;
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
  const columns: Record<string, AnyPgColumn | SQL> = columnsOf(module, binding);
  const collection = collectionSpecOf(module, columns, binding);
  // A versioned record (docs/versions.md) reads its table's `version`, which changeRecord bumps.
  if (isVersioned(module)) columns[VERSION_FIELD] = versionColumnOf(module, binding.table);
  if (module.scope && !binding.scope) fail(module, `scope "${module.scope}" has no condition`);
  const handlers = (binding.actions ?? {}) as Record<string, ActionHandler | ActionBinding>;
  for (const [name, action] of Object.entries(module.actions)) {
    const handler = handlers[name];
    if (!handler) fail(module, `action "${name}" has no handler`);
    if (Boolean(action.of) !== Boolean(actionBindingOf(handler).record)) {
      fail(module, `action "${name}": its "of" record and the binding's reader go together`);
    }
    if (Boolean(action.answer) !== Boolean(actionBindingOf(handler).after)) {
      fail(module, `action "${name}": its declared answer and the binding's "after" go together`);
    }
    for (const alias of action.aliases ?? []) {
      if (Boolean(alias.answer) !== Boolean(alias.response)) {
        fail(module, `action "${name}": alias ${alias.url} has an answer without its schema`);
      }
    }
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
  // The viewer's condition (scopeFor) is theirs alone: checked apart from the prepared read.
  const visible = async (db: DbOrTx, id: number, condition: SQL) => {
    let query = db.select({ id: binding.table.id }).from(binding.table).$dynamic();
    for (const join of binding.joins ?? []) query = query.innerJoin(join.table, join.on);
    return (await query.where(and(eq(binding.table.id, id), condition))).length > 0;
  };
  const read = async (db: DbOrTx, id: number, viewer?: AdministratorRow) => {
    const own = viewer && binding.scopeFor?.(viewer);
    if (own && !(await visible(db, id, own))) return undefined;
    const [row] = await readStatement(db, { id });
    return row ? toRecord(module, row) : undefined;
  };

  return {
    [BOUND]: true,
    module,
    binding: binding as unknown as ModuleBinding<ModuleDecl>,
    collection,
    read,
    related,
    async list(db, raw, viewer) {
      const { rows, ...total } = await runAggregation<Item>(db, collection, source, raw, {
        baseWhere: and(binding.scope, viewer && binding.scopeFor?.(viewer)),
        totals,
        totalsOf: binding.totalsOf,
      });
      return { ...total, [module.queryName]: rows.map((row) => toRecord(module, row)) };
    },
  };
}
