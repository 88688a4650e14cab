import type { ResourceProps } from "@refinedev/core";
import { useSyncExternalStore } from "react";

import type { ResourceModule } from "./kit/types";

/**
 * The back-office modules as Refine sees them. Their declarations (src/resources, and with them
 * src/shared/modules and zod) load with the signed-in console's chunk, not with the login page:
 * that chunk hands them over here, and <Refine> above the routes reads them from here.
 */
let modules: readonly ResourceModule[] = [];
let resources: ResourceProps[] = [];
const listeners = new Set<() => void>();

/** Called once, when the signed-in console's chunk loads. */
export function provideResourceModules(declared: readonly ResourceModule[]): void {
  modules = declared;
  resources = declared.map((module) => module.resource);
  for (const listener of listeners) listener();
}

/** The modules declared so far (none before the signed-in console has loaded). */
export function declaredResourceModules(): readonly ResourceModule[] {
  return modules;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Refine's `resources`, updated when the signed-in console's chunk arrives. */
export function useDeclaredResources(): ResourceProps[] {
  return useSyncExternalStore(subscribe, () => resources);
}
