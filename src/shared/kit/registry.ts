/**
 * The registry of declared modules, found rather than listed: each reader gathers the exports of
 * every file in src/shared/modules (the console with Vite's import.meta.glob, the server and the
 * browser tests by reading the folder) and hands them here. A declaration is recognised by the
 * mark defineModule leaves on it, so a file may export helpers, types and constants beside its
 * modules. Two declarations of one name or one collection fail here, naming both.
 */
import type { ModuleDecl } from "./module";

/** Set by defineModule on every declaration it completes (see isModuleDecl). */
export const DECLARED = Symbol.for("ucsi.kit.module");

/** Whether a value is a module completed by defineModule. */
export function isModuleDecl(value: unknown): value is ModuleDecl {
  return typeof value === "object" && value !== null && DECLARED in value;
}

/**
 * The modules among the exports of the declaration files, each once, ordered by name (a
 * reader that shows them in another order, the menu, orders them itself).
 */
export function collectModules(files: Iterable<Record<string, unknown>>): ModuleDecl[] {
  const byName = new Map<string, ModuleDecl>();
  const byCollection = new Map<string, ModuleDecl>();
  for (const exports of files) {
    for (const value of Object.values(exports)) {
      if (!isModuleDecl(value) || byName.get(value.name) === value) continue;
      if (byName.has(value.name)) {
        throw new Error(`Module "${value.name}" is declared twice`);
      }
      const sibling = byCollection.get(value.collection);
      // A view (viewOf) lists another module's records under its own name and path.
      if (sibling && !value.viewOf && !sibling.viewOf) {
        throw new Error(
          `Modules "${sibling.name}" and "${value.name}" both declare collection "${value.collection}"`,
        );
      }
      byName.set(value.name, value);
      if (!sibling) byCollection.set(value.collection, value);
    }
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}
