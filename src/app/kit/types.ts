import type { ResourceProps } from "@refinedev/core";
import type { ComponentType, LazyExoticComponent } from "react";

import type { ModuleDecl } from "../../shared/kit/module";

/** What the providers and the shell read from a resource's `meta`. */
export interface ConsoleResourceMeta {
  /** Path segment under `/api/` (the data provider's collection). */
  collection: string;
  /** The list's path when it is not `/api/{collection}/aggregation` (relative to the API base). */
  listPath?: string;
  /** Key of the item array in aggregation responses. */
  listKey: string;
  /** Permission code guarding every route and action of the resource. */
  permissionCode: number | null;
  /** The menu entry (src/app/menu.ts) the resource's pages highlight and unlock. */
  menuCode: string;
  /** Translation key of the resource's name. */
  label: string;
  /** The module's declaration, when the resource was made by resourceOf (the kit's pages read it). */
  module?: ModuleDecl;
}

export type ResourceAction = "list" | "create" | "show" | "edit";

/**
 * A back-office module: the Refine resource declaration plus its pages, each a lazy chunk.
 * The shell turns every declared action into a guarded route.
 */
export interface ResourceModule {
  resource: ResourceProps & {
    meta: ConsoleResourceMeta;
  } & Partial<Record<ResourceAction, string>>;
  pages: Partial<Record<ResourceAction, LazyExoticComponent<ComponentType>>>;
}
