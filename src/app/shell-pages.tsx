import { lazy, type ReactElement } from "react";
import { DashboardPage } from "./pages";

const InvoicePage = lazy(() => import("../resources/settlements/invoice-page"));
const HelpEditorPage = lazy(() => import("../resources/help-articles/editor-page"));

/**
 * Pages the shell opens from the `id` query parameter whatever the path (backoffice.md:
 * `dashboard`, `invoice`, `create-edit-help-centre-editor`). Only pages that exist are listed;
 * any other id falls through to the page the path names.
 */
export const SHELL_PAGES: Readonly<Record<string, ReactElement>> = {
  dashboard: <DashboardPage />,
  invoice: <InvoicePage />,
  "create-edit-help-centre-editor": <HelpEditorPage />,
};

/** The id of the shell page `search` asks for, when that page exists. */
export function shellPageId(search: string): string | undefined {
  const id = new URLSearchParams(search).get("id");
  return id !== null && Object.hasOwn(SHELL_PAGES, id) ? id : undefined;
}

export function shellPageFor(search: string): ReactElement | undefined {
  const id = shellPageId(search);
  return id === undefined ? undefined : SHELL_PAGES[id];
}
