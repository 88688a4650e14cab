import { Button, Result } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

/**
 * Shown in place of a page the administrator's permissions do not cover. The server refuses the
 * same requests; this only saves them a screen of errors.
 */
export function ForbiddenPage() {
  const { t } = useTranslation("common");
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      title={<h1 style={{ fontSize: "inherit", margin: 0 }}>{t("forbidden.title")}</h1>}
      subTitle={t("forbidden.description")}
      extra={
        <Button type="primary" onClick={() => navigate("/dashboard")}>
          {t("notFound.backHome")}
        </Button>
      }
    />
  );
}
