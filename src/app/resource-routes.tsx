import type { ReactNode } from "react";
import { Route } from "react-router";
import { canAccess } from "../providers/access-control";
import { useCurrentAdmin } from "../providers/current-admin";
import type { ResourceAction, ResourceModule } from "./kit/types";
import { ModuleTexts } from "./module-texts";
import { ForbiddenPage } from "./pages";

const ACTIONS: readonly ResourceAction[] = ["list", "create", "show", "edit"];

/**
 * Decides from the administrator the session check already loaded, synchronously. Refine's
 * `CanAccess` asks the provider through a query and renders nothing while it is pending, so a
 * page could unmount mid-typing (a half-filled form emptied) whenever that query's key changed.
 */
export function RequirePermission({
  code,
  children,
}: {
  code: number | null;
  children: ReactNode;
}) {
  const admin = useCurrentAdmin();
  // No administrator only happens while signing out: the session guard is about to redirect.
  if (!admin) return null;
  return canAccess(admin, code) ? children : <ForbiddenPage />;
}

/**
 * One route per declared page of every resource, each behind the resource's permission code: an
 * administrator without it sees the 403 page, not the page.
 * (A function, not a component: react-router wants `<Route>` elements as direct children.)
 */
export function resourceRoutes(modules: readonly ResourceModule[]) {
  return modules.flatMap(({ resource, pages }) =>
    ACTIONS.flatMap((action) => {
      const path = resource[action];
      const Page = pages[action];
      if (!path || !Page) return [];
      return [
        <Route
          key={`${resource.name}:${action}`}
          path={path}
          element={
            // Keyed: two modules' pages drawn by the same generated component are two pages, so
            // one's state (its list's filters) never carries into the other's URL.
            <RequirePermission key={resource.name} code={resource.meta.permissionCode}>
              <ModuleTexts>
                <Page />
              </ModuleTexts>
            </RequirePermission>
          }
        />,
      ];
    }),
  );
}
