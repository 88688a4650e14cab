import { Col, Row, Typography } from "antd";
import { useTranslation } from "react-i18next";

import { Panel } from "../../app/components/panel";
import { RichText } from "../../app/kit/rich-text";
import { HTML_LANG } from "../../shared/language";
import { CONTENT_LANGUAGES } from "../../shared/modules/content";

/**
 * A record's title and body in each language side by side, as readers see them: the stored
 * (server-cleaned) HTML drawn through the editor's schema, read-only.
 */
export function BodyPreviews({ row }: { row: Record<string, unknown> }) {
  const { t } = useTranslation("kit");
  return (
    <Panel title={t("richText.preview")} style={{ marginTop: 16 }}>
      <Row gutter={[24, 16]}>
        {CONTENT_LANGUAGES.map(({ language, suffix }) => (
          <Col key={language} xs={24} lg={12}>
            <section lang={HTML_LANG[language]} aria-label={t(`richText.language.${language}`)}>
              <Typography.Text type="secondary">
                {t(`richText.language.${language}`)}
              </Typography.Text>
              <Typography.Title level={3} style={{ marginTop: 4 }}>
                {String(row[`title${suffix}`] ?? "")}
              </Typography.Title>
              <RichText
                readOnly
                label={t(`richText.language.${language}`)}
                value={String(row[`body${suffix}`] ?? "")}
              />
            </section>
          </Col>
        ))}
      </Row>
    </Panel>
  );
}
