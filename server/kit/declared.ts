/**
 * Every declared module: the exports of the files of src/shared/modules (index.ts aside),
 * gathered by collectModules when the server starts. server/modules/index.ts pairs them with their
 * bindings; a home that speaks of every module (the audit log names the module of each entry)
 * reads them here, since it may not import server/modules/index.ts.
 */
import { readdirSync } from "node:fs";

import type { ModuleDecl } from "../../src/shared/kit/module";
import { collectModules } from "../../src/shared/kit/registry";

/** From this file, not the working directory: tsx, vitest, the seed and the benches alike. */
const DECLARATIONS = new URL("../../src/shared/modules/", import.meta.url);

const files = readdirSync(DECLARATIONS)
  .filter((file) => file.endsWith(".ts") && file !== "index.ts")
  .sort();

/** Every declared module, by name. */
export const DECLARED_MODULES: readonly ModuleDecl[] = collectModules(
  await Promise.all(
    files.map(
      (file) => import(new URL(file, DECLARATIONS).href) as Promise<Record<string, unknown>>,
    ),
  ),
);
