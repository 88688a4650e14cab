/**
 * A module's own routes (its binding's `endpoints`), registered like the kit's: in a scope of
 * their own, where a route that states no access gets the module's permission and one that
 * states no OpenAPI tag gets the module's. Validation, the response check and the OpenAPI entry
 * are the app's as for every route; a route that changes something writes its own audit entry.
 */
import { defaultAccess } from "../../auth/access";
import type { RouteDeps } from "../../http/deps";
import type { BoundModule } from "../bind";
import { accessOf, type ZodApp } from "./route";

export async function registerEndpoints(
  app: ZodApp,
  deps: RouteDeps,
  bound: BoundModule,
): Promise<void> {
  const { module, binding } = bound;
  const endpoints = binding.endpoints;
  if (!endpoints) return;
  await app.register(async (scope) => {
    defaultAccess(scope, accessOf(module.permission, module.thing.one));
    scope.addHook("onRoute", (route) => {
      if (route.schema?.tags === undefined) route.schema = { ...route.schema, tags: [module.name] };
    });
    await scope.register(endpoints, { ...deps, bound });
  });
}
