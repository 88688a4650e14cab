import type { Display, LinkedModule } from "../../shared/kit/module";
import { MODULES } from "../registry";

/** What a `link` display points at: this module, another module's declaration, or its name. */
export type LinkTarget = Extract<Display, { kind: "link" }>["to"];

/**
 * The declaration a link leads to: `self` is the module drawing the cell, a declaration is
 * itself, and a name is the module of that name among the declared ones (../registry), which a
 * declaration cannot import (the users' and administrators' own declarations link by name).
 */
export function linkedModule(module: LinkedModule, to: LinkTarget): LinkedModule {
  if (to === "self") return module;
  if (typeof to === "object") return to;
  const named = MODULES.find((candidate) => candidate.name === to);
  if (!named) throw new Error(`Module "${module.name}" links to "${to}", which is not declared`);
  return named;
}

/** A record's detail page; a view's records open on the page of the module it views. */
export function recordPath(module: LinkedModule, id: string | number): string {
  const owner = module.viewOf ?? module;
  return `${owner.paths.show ?? owner.paths.list}/${encodeURIComponent(String(id))}`;
}
