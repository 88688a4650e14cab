import type { ComponentType } from "react";
import { Route, Routes, useLocation } from "react-router";

import { resourceModules } from "../resources";
import { provideResourceModules } from "./declared-resources";
import { DocumentTitle } from "./document-title";
import { EnrolmentGate } from "./enrolment-gate";
import { ConsoleLayout } from "./layout/console-layout";
import { IdleWatch } from "./idle-watch";
import { findMenuEntry } from "./menu";
import { MENU } from "./registry";
import { ModuleTexts } from "./module-texts";
import { PERMISSION, type PermissionCode } from "../shared/permissions";
import { DashboardPage, GlobalPage, NotFoundPage, SettingPage, StatisticPage } from "./pages";
import { RequirePermission, resourceRoutes } from "./resource-routes";
import { shellPageId } from "./shell-pages";
import { StepUpDialog } from "./step-up-dialog";

// Handed to <Refine> when this chunk loads, before any of its pages renders.
provideResourceModules(resourceModules);

/** The tab is named after the current page's menu entry (the `?id=` shell page's, if any). */
function ConsolePageTitle() {
  const { pathname, search } = useLocation();
  const shellId = shellPageId(search);
  const entry = findMenuEntry(MENU, shellId ? `/${shellId}` : pathname)?.entry;
  return <DocumentTitle page={entry?.label} />;
}

/** The shell's pages beside the dashboard, in the modules' words; some need a permission code. */
const SHELL_PAGES: ReadonlyArray<{ path: string; Page: ComponentType; code?: PermissionCode }> = [
  { path: "/statistic", Page: StatisticPage, code: PERMISSION.statistic },
  { path: "/setting", Page: SettingPage },
  { path: "/global", Page: GlobalPage, code: PERMISSION.global },
];

/**
 * Everything behind the session: the frame, the shell's pages and every module's routes, with
 * the module declarations and the menu table, which the login page does without.
 */
export default function SignedInConsole() {
  return (
    <>
      <ConsolePageTitle />
      {/* The session's own dialogs, whichever page is open: step-up and the idle warning. */}
      <StepUpDialog />
      <IdleWatch />
      <EnrolmentGate>
        <Routes>
          <Route element={<ConsoleLayout />}>
            <Route path="/dashboard" element={<DashboardPage />} />
            {SHELL_PAGES.map(({ path, Page, code }) => {
              const page = (
                <ModuleTexts>
                  <Page />
                </ModuleTexts>
              );
              return (
                <Route
                  key={path}
                  path={path}
                  element={
                    code === undefined ? (
                      page
                    ) : (
                      <RequirePermission code={code}>{page}</RequirePermission>
                    )
                  }
                />
              );
            })}
            {resourceRoutes(resourceModules)}
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      </EnrolmentGate>
    </>
  );
}
