/**
 * Registers the routes of bound modules, one small file per kind of route: lists and related
 * lists (./lists.ts), a record filter's options (./options.ts), a record and its history
 * (./record.ts), actions (./actions.ts), the create and edit forms (./forms.ts) and the module's
 * own endpoints (./endpoints.ts). Every route gets the module's OpenAPI tag and its access from
 * the declaration (the list in ./route.ts).
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

import type { RouteDeps } from "../../http/deps";
import type { BoundModule } from "../bind";
import { rememberModule } from "../four-eyes";
import { registerAction } from "./actions";
import { registerEndpoints } from "./endpoints";
import { registerCreate, registerEdit } from "./forms";
import { registerList, registerRelated } from "./lists";
import { registerOptions } from "./options";
import { registerHistory, registerShow } from "./record";
import { moduleRoutes, type ModuleRoute, type RouteContext, type ZodApp } from "./route";

export { moduleRoutes, type ModuleRoute } from "./route";
export { OPTIONS_LIMIT } from "./options";

type Registrations = {
  [K in ModuleRoute["kind"]]: (
    context: RouteContext,
    route: Extract<ModuleRoute, { kind: K }>,
  ) => void;
};

/** Each route kind's registration. */
const REGISTER: Registrations = {
  list: registerList,
  related: registerRelated,
  options: registerOptions,
  show: registerShow,
  history: registerHistory,
  action: registerAction,
  create: registerCreate,
  edit: registerEdit,
};

/** Registers one bound module's routes on `app` (under the API prefix). */
export async function registerModuleRoutes(
  app: ZodApp,
  deps: RouteDeps,
  bound: BoundModule,
): Promise<void> {
  const context: RouteContext = { api: app, db: deps.db, deps, bound, tags: [bound.module.name] };
  rememberModule(bound);
  for (const route of moduleRoutes(bound)) {
    (REGISTER[route.kind] as (context: RouteContext, route: ModuleRoute) => void)(context, route);
  }
  await registerEndpoints(app, deps, bound);
}

/** A plugin that registers the routes of every module in `modules`. */
export function modulesPlugin(modules: readonly BoundModule[]): FastifyPluginAsyncZod<RouteDeps> {
  return async (app, deps) => {
    for (const bound of modules) await registerModuleRoutes(app, deps, bound);
  };
}
