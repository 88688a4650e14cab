import { lazy, type ReactElement } from "react";
import { shellPageId, type ShellPageId } from "../shared/shell-pages";
import { DashboardPage } from "./pages";

export { shellPageId };

const InvoicePage = lazy(() => import("../resources/settlements/invoice-page"));
const HelpEditorPage = lazy(() => import("../resources/help-articles/editor-page"));

/**
 * Pages the shell opens from the `id` query parameter whatever the path (docs/backoffice.md:
 * `dashboard`, `invoice`, `create-edit-help-centre-editor`). Their ids are listed in
 * src/shared/shell-pages.ts, which the server and the entry read too (`/?id=…` is the console's):
 * one page for each, no more, no fewer.
 */
export const SHELL_PAGES: Readonly<Record<ShellPageId, ReactElement>> = {
  dashboard: <DashboardPage />,
  invoice: <InvoicePage />,
  "create-edit-help-centre-editor": <HelpEditorPage />,
};

export function shellPageFor(search: string): ReactElement | undefined {
  const id = shellPageId(search);
  return id === undefined ? undefined : SHELL_PAGES[id];
}
