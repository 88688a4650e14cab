import { lazy } from "react";

import { resourceOf } from "../../app/kit/resource";
import { helpArticles as helpArticlesModule } from "../../shared/modules/help-articles";

const toEditor = lazy(() => import("./to-editor"));

/**
 * Content Management (12): the list with order and publication, the detail page with both
 * languages' preview, and the full-page editor (the shell page `?id=create-edit-help-centre-editor`).
 */
export const helpArticles = resourceOf(helpArticlesModule, {
  list: lazy(() => import("./list")),
  show: lazy(() => import("./show")),
  create: toEditor,
  edit: toEditor,
});
