import { lazy, type ComponentType, type LazyExoticComponent } from "react";

import type { ModuleDecl } from "../../shared/kit/module";
import type { ResourceAction, ResourceModule } from "./types";
import { flattenMenu, isUnderPath, moduleMenuLabel } from "../menu";
import { MENU } from "../registry";

type Pages = Partial<Record<ResourceAction, LazyExoticComponent<ComponentType>>>;

/**
 * The console's reader of a module declaration: the Refine resource (routes, meta with the
 * collection, list key and permission code, menu entry) and its pages. A module whose screen no
 * generator should draw passes that page; the list defaults to the generated one.
 * The declaration's menu entry must exist with the same permission code: a mismatch throws when
 * the console loads, naming the module, never at a user's click.
 */
export function resourceOf(module: ModuleDecl, pages: Pages = {}): ResourceModule {
  if (module.detailOnly) return detailOnlyResource(module, pages);
  const fail = (what: string) => new Error(`Module "${module.name}": ${what}`);
  const entry = flattenMenu(MENU).find((candidate) => candidate.code === module.menu);
  if (!entry) throw fail(`menu entry "${module.menu}" does not exist`);
  if (entry.permissionCode !== module.permission) {
    throw fail(
      `permission ${String(module.permission)} differs from its menu entry's ` +
        String(entry.permissionCode),
    );
  }
  const prefixes = [entry.path, ...(entry.alias ?? [])];
  if (module.paths.list !== entry.path) throw fail(`list path is not its menu entry's path`);
  // A detail prefix below the list path (`/change-requests/show`) belongs to the entry too.
  const show = module.paths.show;
  if (show && !prefixes.some((prefix) => prefix !== undefined && isUnderPath(show, prefix))) {
    throw fail(`show path ${module.paths.show} is not one of its menu entry's paths or aliases`);
  }
  return {
    resource: {
      name: module.name,
      list: module.paths.list,
      ...(module.paths.show ? { show: `${module.paths.show}/:id` } : {}),
      ...(module.paths.create ? { create: module.paths.create } : {}),
      ...(module.paths.edit ? { edit: module.paths.edit } : {}),
      meta: {
        collection: module.collection,
        ...(module.listPath ? { listPath: module.listPath } : {}),
        listKey: module.queryName,
        permissionCode: module.permission,
        menuCode: module.menu,
        label: moduleMenuLabel(module),
        module,
      },
    },
    pages: {
      list: pages.list ?? lazy(() => import("./generated-list")),
      ...(module.paths.show ? { show: pages.show ?? lazy(() => import("./generated-show")) } : {}),
      ...(module.create && module.paths.create
        ? { create: pages.create ?? lazy(() => import("./generated-create")) }
        : {}),
      ...(module.edit && module.paths.edit
        ? { edit: pages.edit ?? lazy(() => import("./generated-edit")) }
        : {}),
      ...pages,
    },
  };
}

/**
 * A module with a detail page only (ModuleInput.detailOnly): no list page and no menu entry; its
 * page, reached by links and the look-up by reference, is behind the module's own code.
 */
function detailOnlyResource(module: ModuleDecl, pages: Pages): ResourceModule {
  return {
    resource: {
      name: module.name,
      show: `${module.paths.show!}/:id`,
      meta: {
        collection: module.collection,
        listKey: module.queryName,
        permissionCode: module.permission,
        menuCode: module.menu,
        label: moduleMenuLabel(module),
        module,
      },
    },
    pages: { show: pages.show ?? lazy(() => import("./generated-show")) },
  };
}
