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
import { registerAction } from "./actions";
import { registerEndpoints } from "./endpoints";
import { registerCreate, registerEdit } from "./forms";
import { registerList, registerRelated } from "./lists";
import { registerOptions } from "./options";
import { registerHistory, registerShow } from "./record";
import { moduleRoutes, type RouteContext, type ZodApp } from "./route";

export { moduleRoutes, type ModuleRoute } from "./route";
export { OPTIONS_LIMIT } from "./options";

/** Registers one bound module's routes on `app` (under the API prefix). */
export async function registerModuleRoutes(
  app: ZodApp,
  deps: RouteDeps,
  bound: BoundModule,
): Promise<void> {
  const context: RouteContext = { api: app, db: deps.db, bound, tags: [bound.module.name] };
  for (const route of moduleRoutes(bound)) {
    switch (route.kind) {
      case "list":
        registerList(context, route);
        break;
      case "related":
        registerRelated(context, route);
        break;
      case "options":
        registerOptions(context, route);
        break;
      case "show":
        registerShow(context, route);
        break;
      case "history":
        registerHistory(context, route);
        break;
      case "action":
        registerAction(context, route);
        break;
      case "create":
        registerCreate(context, route);
        break;
      case "edit":
        registerEdit(context, route);
        break;
    }
  }
  await registerEndpoints(app, deps, bound);
}

/** A plugin that registers the routes of every module in `modules`. */
export function modulesPlugin(modules: readonly BoundModule[]): FastifyPluginAsyncZod<RouteDeps> {
  return async (app, deps) => {
    for (const bound of modules) await registerModuleRoutes(app, deps, bound);
  };
}
