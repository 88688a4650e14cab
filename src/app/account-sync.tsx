import { useInvalidateAuthStore } from "@refinedev/core";
import { useEffect } from "react";

import { loadCurrentAdmin } from "../providers/current-admin";
import { PERMISSION_DENIED_EVENT } from "../providers/error-handler";
import { getToken, TOKEN_NAME } from "../providers/session";

/**
 * Keeps this tab's session in step with the others and with the server:
 * - signing out in another tab signs this one out at once, and signing in there brings this
 *   one into that session (both tabs share the token's cookie and its localStorage mirror);
 * - the administrator's codes are read again when the tab regains focus and whenever the API
 *   refuses a call for want of a code, so the menu never offers pages that answer "denied".
 */
export function AccountSync() {
  const invalidateAuth = useInvalidateAuthStore();

  useEffect(() => {
    const refresh = () => {
      if (!getToken()) return;
      loadCurrentAdmin()
        .then(() => invalidateAuth())
        // A failed read is the session check's business (it ends a dead session).
        .catch(() => undefined);
    };
    const onStorage = (event: StorageEvent) => {
      if (event.key !== TOKEN_NAME && event.key !== null) return;
      if (event.newValue === event.oldValue) return;
      // Signed out there: to the login page; signed in there (or as someone else): that session.
      if (!event.newValue) window.location.assign("/login");
      else window.location.reload();
    };
    const onVisible = () => {
      if (document.visibilityState === "visible") refresh();
    };
    window.addEventListener("storage", onStorage);
    window.addEventListener("focus", refresh);
    document.addEventListener("visibilitychange", onVisible);
    window.addEventListener(PERMISSION_DENIED_EVENT, refresh);
    return () => {
      window.removeEventListener("storage", onStorage);
      window.removeEventListener("focus", refresh);
      document.removeEventListener("visibilitychange", onVisible);
      window.removeEventListener(PERMISSION_DENIED_EVENT, refresh);
    };
  }, [invalidateAuth]);
  return null;
}
