import type { ResourceProps } from "@refinedev/core";

import { resourceOf } from "../app/kit/resource";
import type { ResourceModule } from "../app/kit/types";
import { MODULES } from "../app/registry";
import type { ModuleDecl } from "../shared/kit/module";

/** Whether an export of a screens folder is a resource made by resourceOf. */
function isResourceModule(value: unknown): value is ResourceModule {
  if (typeof value !== "object" || value === null) return false;
  const { resource, pages } = value as Partial<ResourceModule>;
  return typeof resource?.name === "string" && typeof pages === "object" && pages !== null;
}

/**
 * Every back-office module, one per declaration: the resource a folder of its own screens
 * exports (`src/resources/<folder>/index.ts`, `resourceOf(declaration, { …its pages })`), or the
 * one the kit draws whole. Screens naming no declared module, or two folders' screens for one
 * module, throw when the console loads, naming the folder.
 */
export function resourceModulesOf(
  modules: readonly ModuleDecl[],
  screenFiles: Record<string, Record<string, unknown>>,
): ResourceModule[] {
  const own = new Map<string, { resource: ResourceModule; file: string }>();
  for (const [file, exports] of Object.entries(screenFiles)) {
    for (const value of Object.values(exports)) {
      if (!isResourceModule(value)) continue;
      const { name } = value.resource;
      if (!modules.some((module) => module.name === name)) {
        throw new Error(`Screens of "${name}" in ${file}: no declared module has that name`);
      }
      const other = own.get(name);
      if (other && other.resource !== value) {
        throw new Error(`Module "${name}" has screens of its own twice: ${other.file} and ${file}`);
      }
      own.set(name, { resource: value, file });
    }
  }
  return modules.map((module) => own.get(module.name)?.resource ?? resourceOf(module));
}

// The folders of screens drawn by hand; each index.ts holds only lazy pages, so this stays small.
const screenFiles = import.meta.glob<Record<string, unknown>>("./*/index.ts", { eager: true });

/**
 * Every back-office module in this build, in menu order: declaring a module (src/shared/modules)
 * adds its routes and its menu entry; a folder here adds screens of its own.
 */
export const resourceModules: readonly ResourceModule[] = resourceModulesOf(MODULES, screenFiles);

export const resources: ResourceProps[] = resourceModules.map((module) => module.resource);
