import { Button, Result } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

/** Any console path that names no page (docs/backoffice.md: paths outside the menu). */
export function NotFoundPage() {
  const { t } = useTranslation("common");
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title={<h1 style={{ fontSize: "inherit", margin: 0 }}>{t("notFound.title")}</h1>}
      subTitle={t("notFound.description")}
      extra={
        <Button type="primary" onClick={() => navigate("/dashboard")}>
          {t("notFound.backHome")}
        </Button>
      }
    />
  );
}
