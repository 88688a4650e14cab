import { ConsoleStatusPage } from "../components/status-page";

/**
 * Shown in place of a page the administrator's permissions do not cover. The server refuses the
 * same requests; this only saves them a screen of errors.
 */
export function ForbiddenPage() {
  return <ConsoleStatusPage status="403" words="forbidden" />;
}
