import { useResourceParams } from "@refinedev/core";

import type { ModuleDecl } from "../../shared/kit/module";
import type { ConsoleResourceMeta } from "./types";

/** The declaration of the resource the current route belongs to (resourceOf puts it in meta). */
export function useModule(): ModuleDecl {
  const { resource } = useResourceParams();
  const module = (resource?.meta as ConsoleResourceMeta | undefined)?.module;
  if (!module)
    throw new Error(`Resource ${resource?.name ?? "?"} was not declared with resourceOf`);
  return module;
}
