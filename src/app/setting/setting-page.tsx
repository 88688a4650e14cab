import { Col, Row } from "antd";
import { useTranslation } from "react-i18next";
import { PageHeader } from "../components/page-header";
import { ChangePasswordCard } from "./change-password-card";
import { LanguageCard } from "./language-card";
import { SessionsCard } from "./sessions-card";
import { ThemeCard } from "./theme-card";
import { TwoStepCard } from "./two-step-card";

/**
 * The administrator's own account: password, language, theme, two-step sign-in and the sessions
 * open. Needs no permission code.
 */
export default function SettingPage() {
  const { t } = useTranslation("setting");
  return (
    <>
      <PageHeader title={t("title")} />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={14}>
          <ChangePasswordCard />
        </Col>
        <Col xs={24} lg={10}>
          <LanguageCard />
          <div style={{ height: 16 }} />
          <ThemeCard />
        </Col>
        <Col xs={24} xl={12}>
          <TwoStepCard />
        </Col>
        <Col xs={24} xl={12}>
          <SessionsCard />
        </Col>
      </Row>
    </>
  );
}
