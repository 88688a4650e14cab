import { helpArticles } from "../../shared/modules/help-articles";
import type { ShellPageId } from "../../shared/shell-pages";

/** The full-page editor: the shell page `?id=create-edit-help-centre-editor`, whatever the path. */
export const HELP_EDITOR_ID = "create-edit-help-centre-editor" satisfies ShellPageId;

/** The editor of a new article, or of article `id` (on the articles' list path, from the declaration). */
export const helpEditorPath = (id?: number | string) =>
  `${helpArticles.paths.list}?id=${HELP_EDITOR_ID}${id === undefined ? "" : `&article=${encodeURIComponent(String(id))}`}`;
