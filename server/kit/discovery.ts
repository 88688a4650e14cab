/**
 * The server's half of the registry (src/shared/kit/registry.ts): the bound modules found among
 * the exports of the module homes (server/modules/<home>/index.ts), paired with the declared
 * modules. The pairing is the start-up check: a declared module without a binding, a binding of
 * a declaration that is not among the declared ones, or one declaration bound twice fails here,
 * naming the module, before the server answers anything.
 */
import type { ModuleDecl } from "../../src/shared/kit/module";
import { isBoundModule, type BoundModule } from "./bind";

/** The bound modules among the exports of the module homes, each once. */
export function collectBindings(files: Iterable<Record<string, unknown>>): BoundModule[] {
  const found = new Set<BoundModule>();
  for (const exports of files) {
    for (const value of Object.values(exports)) if (isBoundModule(value)) found.add(value);
  }
  return [...found];
}

/**
 * Each declared module with its binding, in the declared modules' order; throws naming the
 * module when one has no binding, a binding has no declaration, or a declaration two bindings.
 */
export function pairModules(
  declared: readonly ModuleDecl[],
  bindings: readonly BoundModule[],
): BoundModule[] {
  const byDeclaration = new Map<ModuleDecl, BoundModule>();
  for (const bound of bindings) {
    const { module } = bound;
    if (!declared.includes(module)) {
      throw new Error(
        `Module "${module.name}" is bound in server/modules but not declared in src/shared/modules`,
      );
    }
    if (byDeclaration.has(module)) throw new Error(`Module "${module.name}" is bound twice`);
    byDeclaration.set(module, bound);
  }
  return declared.map((module) => {
    const bound = byDeclaration.get(module);
    if (!bound) {
      throw new Error(
        `Module "${module.name}" is declared in src/shared/modules but has no binding in server/modules`,
      );
    }
    return bound;
  });
}
