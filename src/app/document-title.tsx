import { useEffect } from "react";
import { useTranslation } from "react-i18next";

/** Names the browser tab after `page` (a translation key), in the current language. */
export function DocumentTitle({ page }: { page: string | undefined }) {
  const { t, i18n } = useTranslation("common");

  useEffect(() => {
    const app = t("app.name");
    document.title = page ? `${t(page)} · ${app}` : app;
  }, [page, t, i18n.language]);

  return null;
}
