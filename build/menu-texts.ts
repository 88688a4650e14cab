/**
 * The `menu` namespace as the console reads it: the shell's own words (`locales/<lng>/menu.json`:
 * its pages and groups) and, under `modules`, each module's menu label, which its own namespace
 * file holds under `menu`. A module names its entry in its own files, yet the menu's words stay
 * one small file the first screen loads (the modules' words follow when a module page opens).
 */
import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

import type { Plugin } from "vite";

type Texts = Record<string, unknown>;

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Texts;

/** The files of one language's folder that name a menu entry: `<ns>.json` with a `menu` text. */
export function moduleMenuFiles(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith(".json") && name !== "menu.json")
    .map((name) => join(folder, name))
    .filter((path) => typeof readJson(path).menu === "string");
}

/** `menu.json` of `folder` with `modules.<ns>` set to each module file's `menu` text. */
export function menuTexts(folder: string): Texts {
  const modules = Object.fromEntries(
    moduleMenuFiles(folder).map((path) => [basename(path, ".json"), readJson(path).menu]),
  );
  return { ...readJson(join(folder, "menu.json")), modules };
}

/** Serves every `locales/<lng>/menu.json` as menuTexts makes it, in the build, dev and tests. */
export function moduleMenuTexts(): Plugin {
  return {
    name: "module-menu-texts",
    enforce: "pre",
    load(id) {
      const path = id.split("?")[0]!;
      if (!/[\\/]locales[\\/][^\\/]+[\\/]menu\.json$/.test(path)) return null;
      const folder = dirname(path);
      for (const file of moduleMenuFiles(folder)) this.addWatchFile(file);
      return JSON.stringify(menuTexts(folder));
    },
  };
}
