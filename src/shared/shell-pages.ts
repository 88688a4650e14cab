/**
 * The pages the console's shell opens from the `id` query parameter whatever the path
 * (docs/backoffice.md: `dashboard`, `invoice`, `create-edit-help-centre-editor`), `/` too. Only
 * pages that exist are listed; any other id falls through to the page the path names (at `/`, the
 * calculator). Shared: the server answers `/?id=<one of these>` with the console's page rather
 * than the calculator's (server/app.ts), the entry picks the console for it (src/main.tsx), and
 * the console draws the page (src/app/shell-pages.tsx).
 */
export const SHELL_PAGE_IDS = ["dashboard", "invoice", "create-edit-help-centre-editor"] as const;

export type ShellPageId = (typeof SHELL_PAGE_IDS)[number];

const isShellPageId = (id: string): id is ShellPageId =>
  (SHELL_PAGE_IDS as readonly string[]).includes(id);

/** The id of the shell page a query string (`?a=1&id=invoice`, with or without `?`) asks for. */
export function shellPageId(search: string): ShellPageId | undefined {
  const id = new URLSearchParams(search).get("id");
  return id !== null && isShellPageId(id) ? id : undefined;
}
