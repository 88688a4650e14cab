import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { MENU, findMenuEntry } from "./menu";
import { shellPageId } from "./shell-pages";

/** Names the browser tab after the current page, in the current language. */
export function DocumentTitle() {
  const { t, i18n } = useTranslation("common");
  const { pathname, search } = useLocation();
  const shellId = shellPageId(search);

  useEffect(() => {
    const app = t("app.name");
    const page =
      pathname === "/login"
        ? t("pages.login.signin")
        : findMenuEntry(MENU, shellId ? `/${shellId}` : pathname)?.entry.label;
    document.title = page ? `${t(page)} · ${app}` : app;
  }, [pathname, shellId, t, i18n.language]);

  return null;
}
