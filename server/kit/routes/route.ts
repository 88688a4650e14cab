/**
 * The routes a bound module serves, as one list: registration (./index.ts) goes through it, and
 * so do the tests that go through every route (the conformance suite, the authorisation matrix).
 */
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";

import type { ActionDecl, FormDecl, ModuleDecl } from "../../../src/shared/kit/module";
import type { RouteAccess } from "../../auth/access";
import type { Db } from "../../db";
import type { RouteDeps } from "../../http/deps";
import { fail, type BoundModule } from "../bind";

/** The app as a route kind's registration sees it: zod schemas validate and document. */
export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What every route kind's registration is given. */
export interface RouteContext {
  api: ZodApp;
  db: Db;
  /** The app's route deps (an action's effect sends mail with them). */
  deps: RouteDeps;
  bound: BoundModule;
  /** The module's OpenAPI tag. */
  tags: string[];
}

/** What a route needs from the declaration's permission. */
export function accessOf(permission: ModuleDecl["permission"], thing: string): RouteAccess {
  return permission === null ? "session" : { permission, thing };
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
  // A view without a path of its own reads the list of the module it views; a detail page only
  // has no list at all.
  if (!module.detailOnly && (!module.viewOf || module.listPath !== undefined)) {
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
  }
  // A related list reads its record through the module's own read, whether or not the kit also
  // serves the record (the users' detail is their module's own route).
  for (const [name, list] of Object.entries(module.related ?? {})) {
    routes.push({
      kind: "related",
      method: "GET",
      url: `/api/${module.collection}/:id/${list.path}`,
      access: accessOf(module.permission, `${module.thing.one} ${list.queryName}`),
      name,
    });
  }
  for (const [name, action] of Object.entries(module.actions)) {
    routes.push({
      kind: "action",
      method: action.method,
      url: `/api/${module.collection}/:id${action.path ? `/${action.path}` : ""}`,
      access: accessOf(action.permission ?? module.permission, action.thing ?? module.thing.one),
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
