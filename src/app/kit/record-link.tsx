import type { ReactNode } from "react";
import { Link } from "react-router";

import { canAccess } from "../../providers/access-control";
import { useCurrentAdmin } from "../../providers/current-admin";
import type { LinkedModule } from "../../shared/kit/module";
import { recordPath, recordPermission } from "./links";

/**
 * Whether the signed-in administrator may open a record of `module` (its detail page's route lets
 * them in), decided from the administrator the session check loaded, as the routes and the menu
 * decide: no request per cell. Before an administrator is known (no page is drawn then but in
 * isolation) a link stays a link, and the page's route decides.
 */
export function useMayOpen(): (module: LinkedModule) => boolean {
  const admin = useCurrentAdmin();
  return (module) => !admin || canAccess(admin, recordPermission(module));
}

/**
 * A link to a record's detail page, or its text alone when the administrator may not open that
 * page (a link that would only lead to Access denied).
 */
export function RecordLink({
  to,
  id,
  children,
}: {
  to: LinkedModule;
  id: string | number;
  children: ReactNode;
}) {
  const mayOpen = useMayOpen();
  return mayOpen(to) ? <Link to={recordPath(to, id)}>{children}</Link> : children;
}
