import { CanAccess } from "@refinedev/core";
import { Route } from "react-router";
import type { ResourceAction, ResourceModule } from "../resources/types";
import { ForbiddenPage } from "./pages";

const ACTIONS: readonly ResourceAction[] = ["list", "create", "show", "edit"];

/**
 * One route per declared page of every resource, each behind the access-control provider: an
 * administrator without the resource's permission code sees the 403 page, not the page.
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
            <CanAccess resource={resource.name} action={action} fallback={<ForbiddenPage />}>
              <Page />
            </CanAccess>
          }
        />,
      ];
    }),
  );
}
