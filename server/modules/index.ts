/**
 * Every back-office module, found rather than listed: the declarations are the exports of the
 * files in src/shared/modules (index.ts aside), the bindings the exports of each home here
 * (server/modules/<home>/index.ts). They are paired at import, so a declared module without a
 * binding, or a binding without a declaration, stops the server at start naming the module. The
 * app registers the routes of every bound module, and the conformance suite and the
 * authorisation matrix go through BOUND_MODULES, so a new module is covered by existing.
 */
import { readdirSync } from "node:fs";

import type { ModuleDecl } from "../../src/shared/kit/module";
import { collectModules } from "../../src/shared/kit/registry";
import { collectBindings, pairModules } from "../kit/discovery";
import { modulesPlugin } from "../kit/routes";

/** Paths from this file, not the working directory: tsx, vitest, the seed and the benches alike. */
const DECLARATIONS = new URL("../../src/shared/modules/", import.meta.url);
const HOMES = new URL("./", import.meta.url);

const declarationFiles = readdirSync(DECLARATIONS)
  .filter((file) => file.endsWith(".ts") && file !== "index.ts")
  .sort();
const homes = readdirSync(HOMES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const importAll = (urls: URL[]) =>
  Promise.all(urls.map((url) => import(url.href) as Promise<Record<string, unknown>>));

/** Every declared module, by name. */
export const DECLARED_MODULES: readonly ModuleDecl[] = collectModules(
  await importAll(declarationFiles.map((file) => new URL(file, DECLARATIONS))),
);

/** Every declared module bound to its tables, in DECLARED_MODULES' order. */
export const BOUND_MODULES = pairModules(
  DECLARED_MODULES,
  collectBindings(await importAll(homes.map((home) => new URL(`${home}/index.ts`, HOMES)))),
);

/** The routes of every bound module: the kit's from each declaration, and each one's endpoints. */
export const moduleRoutesPlugin = modulesPlugin(BOUND_MODULES);
