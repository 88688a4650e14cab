/** The full-page editor: the shell page `?id=create-edit-help-centre-editor`, whatever the path. */
export const HELP_EDITOR_ID = "create-edit-help-centre-editor";

/** The editor of a new article, or of article `id`. */
export const helpEditorPath = (id?: number | string) =>
  `/content-mgmt?id=${HELP_EDITOR_ID}${id === undefined ? "" : `&article=${encodeURIComponent(String(id))}`}`;
