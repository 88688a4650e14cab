/**
 * The declared modules and the menu built from them, as the console has them, found the way the
 * console finds them but in Node: every file of src/shared/modules, imported, its declarations
 * gathered by the kit's registry (the console uses Vite's import.meta.glob, src/app/registry.ts,
 * which Playwright does not run).
 */
import { readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

import { registryOf } from "../../../src/app/menu";

const folder = fileURLToPath(new URL("../../../src/shared/modules/", import.meta.url));

const files = await Promise.all(
  readdirSync(folder)
    .filter((file) => file.endsWith(".ts"))
    .sort()
    .map(
      (file) => import(pathToFileURL(`${folder}${file}`).href) as Promise<Record<string, unknown>>,
    ),
);

export const { MODULES, MENU } = registryOf(files);
