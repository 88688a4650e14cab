import { ReloadOutlined } from "@ant-design/icons";
import { useCustom } from "@refinedev/core";
import { Alert, Button, Col, Row, Spin } from "antd";
import { useTranslation } from "react-i18next";
import { PageHeader } from "../components/page-header";
import { Panel } from "../components/panel";
import { QueryError } from "../components/query-error";
import { refreshChangeRequestCounts } from "../kit/change-request-counts";
import { ApprovalsPanel } from "./approvals-panel";
import { FigureTile } from "./figure-tile";
import { ReferenceSearch } from "./reference-search";
import { DASHBOARD_SECTIONS, figureOf, type DashboardSummary, type SectionKey } from "./sections";
import { TrendPanel } from "./trend-panel";
import { useLiveRefetch } from "./use-live-refetch";

export const DASHBOARD_SUMMARY_PATH = "/api/dashboard/summary";

/** Headline figures for what the administrator may see; the server leaves out the rest. */
export default function DashboardPage() {
  const { t } = useTranslation("dashboard");
  const { query, result } = useCustom<DashboardSummary>({
    url: DASHBOARD_SUMMARY_PATH,
    method: "get",
    // The inline error state below says what went wrong; no toast on top of it.
    errorNotification: false,
  });
  // The figures move: read again (at most every few seconds) when any record changes.
  useLiveRefetch(() => query.refetch());
  const summary: DashboardSummary | undefined = result.data;
  const sections = DASHBOARD_SECTIONS.filter((section) => summary?.[section.key]);
  // A section shows the figures the server sent: each queue and amount has its own code.
  const sent = (key: SectionKey) => (figure: string) =>
    figureOf(summary, key, figure) !== undefined;

  return (
    <>
      <PageHeader
        title={t("title")}
        extra={
          <Button
            icon={<ReloadOutlined aria-hidden />}
            onClick={() => {
              void query.refetch();
              void refreshChangeRequestCounts();
            }}
            loading={query.isFetching && !query.isLoading}
          >
            {t("refresh")}
          </Button>
        }
      />
      <ReferenceSearch />
      <ApprovalsPanel />
      {query.isLoading ? (
        <Panel>
          <Spin tip={t("common:loading")}>
            <div style={{ minHeight: 120 }} />
          </Spin>
        </Panel>
      ) : query.isError ? (
        <QueryError
          error={query.error}
          onRetry={() => void query.refetch()}
          title={t("loadFailed")}
        />
      ) : sections.length === 0 && !summary?.trend ? (
        <Alert type="info" showIcon message={t("empty")} />
      ) : (
        <Row gutter={[16, 16]}>
          {sections.map((section) => (
            <Col key={section.key} xs={24} xl={12}>
              <Panel title={t(`${section.key}.title`)}>
                <Row gutter={[16, 16]}>
                  {section.figures.filter(sent(section.key)).map((figure) => (
                    <Col key={figure} xs={12} md={6}>
                      <FigureTile
                        section={t(`${section.key}.title`)}
                        label={t(`${section.key}.${figure}`)}
                        value={figureOf(summary, section.key, figure) ?? 0}
                        money={section.money?.includes(figure)}
                        to={section.linkFor(figure, summary)}
                      />
                    </Col>
                  ))}
                </Row>
              </Panel>
            </Col>
          ))}
          {summary?.trend && (
            <Col xs={24}>
              <TrendPanel days={summary.trend} />
            </Col>
          )}
        </Row>
      )}
    </>
  );
}
