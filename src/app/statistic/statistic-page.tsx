import { ArrowDownOutlined, ArrowUpOutlined } from "@ant-design/icons";
import { useCustom } from "@refinedev/core";
import { Col, DatePicker, Flex, Row, Segmented, Spin, Statistic, theme, Typography } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";

import { formatRinggit } from "../../shared/money";
import {
  MONEY_FIGURES,
  STATISTIC_FIGURES,
  STATISTICS_GRANULARITIES,
  type Statistics,
  type StatisticFigure,
  type StatisticsGranularity,
} from "../../shared/schemas/statistics";
import { PageHeader } from "../components/page-header";
import { Panel } from "../components/panel";
import { QueryError } from "../components/query-error";
import { DAY_FORMAT, formatDate } from "../format";
import { ChartCard } from "./chart-card";
import { statisticCharts } from "./chart-data";

export const STATISTICS_PATH = "/api/statistics";

export const PRESETS = ["today", "7days", "30days", "thisMonth", "lastMonth", "custom"] as const;
export type Preset = (typeof PRESETS)[number];

/** The range of a preset, by the console's calendar (the campus's business days). */
export function presetRange(preset: Exclude<Preset, "custom">, now: Dayjs = dayjs()) {
  const today = now.startOf("day");
  const range = {
    today: [today, today],
    "7days": [today.subtract(6, "day"), today],
    "30days": [today.subtract(29, "day"), today],
    thisMonth: [today.startOf("month"), today],
    lastMonth: [
      today.subtract(1, "month").startOf("month"),
      today.subtract(1, "month").endOf("month"),
    ],
  }[preset];
  return { from: range[0]!.format(DAY_FORMAT), to: range[1]!.format(DAY_FORMAT) };
}

interface Asked {
  preset: Preset;
  from: string;
  to: string;
  granularity: StatisticsGranularity;
}

/** What the URL asks for (so a reload or a shared link shows the same range), else 30 days. */
function askedOf(params: URLSearchParams): Asked {
  const preset = PRESETS.find((p) => p === params.get("preset")) ?? "30days";
  const granularity =
    STATISTICS_GRANULARITIES.find((g) => g === params.get("granularity")) ?? "day";
  if (preset !== "custom") return { preset, granularity, ...presetRange(preset) };
  const day = (name: string) => {
    const value = params.get(name) ?? "";
    return dayjs(value, DAY_FORMAT, true).isValid() ? value : undefined;
  };
  const from = day("from");
  const to = day("to");
  if (!from || !to) return { preset: "30days", granularity, ...presetRange("30days") };
  return { preset, granularity, from, to };
}

const whole = new Intl.NumberFormat("en-US");

function Change({ current, previous }: { current: number; previous: number }) {
  const { t } = useTranslation("statistic");
  const { token } = theme.useToken();
  if (previous === 0) {
    return (
      <Typography.Text type="secondary">
        {current === 0 ? t("change.none") : t("change.new")}
      </Typography.Text>
    );
  }
  const percent = ((current - previous) / previous) * 100;
  const up = percent >= 0;
  const colour =
    percent === 0 ? token.colorTextSecondary : up ? token.colorSuccessText : token.colorErrorText;
  return (
    <span style={{ color: colour }}>
      {percent !== 0 && (up ? <ArrowUpOutlined aria-hidden /> : <ArrowDownOutlined aria-hidden />)}{" "}
      {t(up ? "change.up" : "change.down", { percent: Math.abs(percent).toFixed(1) })}
    </span>
  );
}

function Kpi({ figure, data }: { figure: StatisticFigure; data: Statistics }) {
  const { t } = useTranslation("statistic");
  const { token } = theme.useToken();
  const { current, previous } = data.totals[figure];
  const show = (value: number) =>
    MONEY_FIGURES.has(figure) ? formatRinggit(value) : whole.format(value);
  return (
    <div
      data-figure={figure}
      style={{
        height: "100%",
        padding: 12,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadius,
        background: token.colorBgContainer,
      }}
    >
      <Statistic title={t(`figures.${figure}`)} value={show(current)} />
      <div style={{ fontSize: token.fontSizeSM }}>
        <Change current={current} previous={previous} />
        <div>
          <Typography.Text type="secondary">
            {t("change.previous", { value: show(previous) })}
          </Typography.Text>
        </div>
      </div>
    </div>
  );
}

/** Statistic (32): the campus's figures over a range, against the range before, as charts. */
export default function StatisticPage() {
  const { t } = useTranslation(["statistic", "users", "topUp", "common"]);
  const [params, setParams] = useSearchParams();
  const asked = useMemo(() => askedOf(params), [params]);
  const ask = (next: Partial<Asked>) => {
    const merged = { ...asked, ...next };
    const search = new URLSearchParams({ preset: merged.preset, granularity: merged.granularity });
    if (merged.preset === "custom") {
      search.set("from", merged.from);
      search.set("to", merged.to);
    }
    setParams(search, { replace: true });
  };
  const query = { from: asked.from, to: asked.to, granularity: asked.granularity };
  const { query: statistics, result } = useCustom<Statistics>({
    url: STATISTICS_PATH,
    method: "get",
    config: { query },
    queryOptions: { queryKey: ["statistics", query.from, query.to, query.granularity] },
    errorNotification: false,
  });
  const data = statistics.isError ? undefined : statistics.data ? result.data : undefined;
  const charts = data ? statisticCharts(data, t) : [];
  const file = (key: string) => `statistic-${key}-${asked.from}-${asked.to}`;

  return (
    <>
      <PageHeader title={t("title")} />
      <Panel style={{ marginBottom: 16 }}>
        <Flex gap={12} wrap="wrap" align="center">
          <Segmented
            aria-label={t("range.label")}
            value={asked.preset}
            onChange={(preset) => {
              const next = preset as Preset;
              ask(next === "custom" ? { preset: next } : { preset: next, ...presetRange(next) });
            }}
            options={PRESETS.map((preset) => ({ value: preset, label: t(`range.${preset}`) }))}
            style={{ maxWidth: "100%", overflowX: "auto" }}
          />
          <DatePicker.RangePicker
            allowClear={false}
            value={[dayjs(asked.from), dayjs(asked.to)]}
            onChange={(range) => {
              const [from, to] = range ?? [];
              if (from && to)
                ask({ preset: "custom", from: from.format(DAY_FORMAT), to: to.format(DAY_FORMAT) });
            }}
          />
          <Segmented
            aria-label={t("granularity.label")}
            value={asked.granularity}
            onChange={(granularity) => ask({ granularity: granularity as StatisticsGranularity })}
            options={STATISTICS_GRANULARITIES.map((g) => ({
              value: g,
              label: t(`granularity.${g}`),
            }))}
          />
        </Flex>
        {data && (
          <Typography.Paragraph type="secondary" style={{ margin: "8px 0 0" }}>
            {t("comparedWith", {
              from: formatDate(`${data.previousFrom}T00:00:00`),
              to: formatDate(`${data.previousTo}T00:00:00`),
            })}
          </Typography.Paragraph>
        )}
      </Panel>
      {statistics.isError ? (
        <QueryError
          error={statistics.error}
          onRetry={() => void statistics.refetch()}
          title={t("loadFailed")}
        />
      ) : !data ? (
        <Panel>
          <Spin tip={t("common:loading")}>
            <div style={{ minHeight: 160 }} />
          </Spin>
        </Panel>
      ) : (
        <Spin spinning={statistics.isFetching}>
          <section aria-label={t("kpis")}>
            <Row gutter={[12, 12]} style={{ marginBottom: 16 }}>
              {STATISTIC_FIGURES.map((figure) => (
                <Col key={figure} xs={12} md={8} xl={6} xxl={4}>
                  <Kpi figure={figure} data={data} />
                </Col>
              ))}
            </Row>
          </section>
          <Row gutter={[16, 16]}>
            {charts.map((spec) => (
              <Col key={spec.key} xs={24} xl={12}>
                <ChartCard
                  spec={spec}
                  title={t(`charts.${spec.key}.title`)}
                  xHeader={t(`charts.${spec.key}.x`)}
                  file={file(spec.key)}
                />
              </Col>
            ))}
          </Row>
        </Spin>
      )}
    </>
  );
}
