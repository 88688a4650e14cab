import { ConsoleStatusPage } from "../components/status-page";

/** Any console path that names no page (docs/backoffice.md: paths outside the menu). */
export function NotFoundPage() {
  return <ConsoleStatusPage status="404" words="notFound" />;
}
