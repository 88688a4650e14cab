import { isLinkedModule, type Display, type LinkedModule } from "../../shared/kit/module";
import { globalSettingsDescribed } from "../../shared/global-settings";
import { MODULES } from "../registry";

/** What a `link` display points at: this module, another module's declaration, or its name. */
export type LinkTarget = Extract<Display, { kind: "link" }>["to"];

/**
 * The declaration a link leads to: `self` is the module drawing the cell, a declaration is
 * itself, a name is the module of that name among the declared ones (../registry), which a
 * declaration cannot import (the users' and administrators' own declarations link by name), and
 * `{ field }` the module `row` names in that field. Undefined when the row names no declared
 * module, or one without a detail page (the cell is then plain text).
 */
export function linkedModule(
  module: LinkedModule,
  to: Exclude<LinkTarget, { field: string }>,
): LinkedModule;
export function linkedModule(
  module: LinkedModule,
  to: LinkTarget,
  row?: Record<string, unknown>,
): LinkedModule | undefined;
export function linkedModule(
  module: LinkedModule,
  to: LinkTarget,
  row: Record<string, unknown> = {},
): LinkedModule | undefined {
  if (to === "self") return module;
  if (isLinkedModule(to)) return to;
  if (typeof to === "object") {
    const named = moduleNamed(row[to.field]);
    return named && (named.viewOf ?? named).paths.show ? named : undefined;
  }
  const named = moduleNamed(to);
  if (!named) throw new Error(`Module "${module.name}" links to "${to}", which is not declared`);
  return named;
}

/** The declared module of that name, if any (a row's module name, a link's target), or the settings. */
export function moduleNamed(name: unknown): LinkedModule | undefined {
  return [...MODULES, ...DESCRIBED].find((candidate) => candidate.name === name);
}

/** What four eyes may hold beside the modules, described in their own words (the settings). */
const DESCRIBED: readonly LinkedModule[] = [globalSettingsDescribed];

/** A record's detail page; a view's records open on the page of the module it views. */
export function recordPath(module: LinkedModule, id: string | number): string {
  const owner = module.viewOf ?? module;
  return `${owner.paths.show ?? owner.paths.list}/${encodeURIComponent(String(id))}`;
}

/**
 * The permission code guarding a record's detail page (recordPath): the routes of the module that
 * owns the page, behind that module's code (src/app/resource-routes.tsx); `null` when it needs
 * none, `undefined` when no declared module owns it.
 */
export function recordPermission(module: LinkedModule): number | null | undefined {
  const owner = module.viewOf ?? module;
  return MODULES.find((candidate) => candidate.name === owner.name)?.permission;
}
