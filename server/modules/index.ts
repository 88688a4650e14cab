/**
 * Every back-office module, found rather than listed: the declarations are the exports of the
 * files in src/shared/modules (index.ts aside, read by server/kit/declared.ts), the bindings the exports of each home here
 * (server/modules/<home>/index.ts). They are paired at import, so a declared module without a
 * binding, or a binding without a declaration, stops the server at start naming the module. The
 * app registers the routes of every bound module, and the conformance suite and the
 * authorisation matrix go through BOUND_MODULES, so a new module is covered by existing.
 */
import { readdirSync } from "node:fs";

import { DECLARED_MODULES } from "../kit/declared";
import { collectBindings, pairModules } from "../kit/discovery";
import { modulesPlugin } from "../kit/routes";

export { DECLARED_MODULES };

/** Paths from this file, not the working directory: tsx, vitest, the seed and the benches alike. */
const HOMES = new URL("./", import.meta.url);

const homes = readdirSync(HOMES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const importAll = (urls: URL[]) =>
  Promise.all(urls.map((url) => import(url.href) as Promise<Record<string, unknown>>));

/** Every declared module bound to its tables, in DECLARED_MODULES' order. */
export const BOUND_MODULES = pairModules(
  DECLARED_MODULES,
  collectBindings(await importAll(homes.map((home) => new URL(`${home}/index.ts`, HOMES)))),
);

/** The routes of every bound module: the kit's from each declaration, and each one's endpoints. */
export const moduleRoutesPlugin = modulesPlugin(BOUND_MODULES);
