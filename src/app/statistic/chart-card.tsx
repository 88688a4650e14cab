import { DownloadOutlined } from "@ant-design/icons";
import { Button, Empty, Flex, Segmented, Spin } from "antd";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";

import { Panel } from "../components/panel";
import { formatDate } from "../format";
import { downloadText } from "../kit/csv";
import { chartAxes, chartCsv, seriesOf, type ChartSpec } from "./chart-data";
import { SparkLines } from "./spark-lines";

// The chart library's own chunk: fetched when a chart is first drawn.
const Chart = lazy(() => import("./charts"));
// antd's Table, fetched when a chart is first read as a table.
const ChartTable = lazy(() => import("./chart-table"));

/**
 * One chart in a panel: drawn, or read as a table (the same rows: for screen readers and small
 * screens), with its data as CSV. `file` names the download (`<file>-<from>-<to>.csv`).
 */
export function ChartCard({
  spec,
  title,
  xHeader,
  file,
  height,
  light,
}: {
  spec: ChartSpec;
  title: string;
  /** The CSV's and the table's first column: Day, Channel, Merchant. */
  xHeader: string;
  file: string;
  height?: number;
  /** Drawn as small SVG lines without the chart library (the dashboard, the first screen). */
  light?: boolean;
}) {
  const { t } = useTranslation("common");
  const [view, setView] = useState<"chart" | "table">("chart");
  const empty = spec.points.length === 0;
  // The axes G2 draws on its canvas, also said in words (a canvas says nothing to a screen reader).
  const axes = chartAxes(
    spec,
    { x: xHeader, y: t(spec.money ? "chart.money" : "chart.count") },
    (day) => formatDate(`${day}T00:00:00`),
  );
  const described = t("chart.described", {
    chart: title,
    series: seriesOf(spec).join(", "),
    x: axes.x.title,
    xTicks: axes.x.ticks.map((tick) => tick.label).join(", "),
    y: axes.y.title,
    yTicks: axes.y.ticks.map((tick) => tick.label).join(", "),
  });

  return (
    <Panel
      title={title}
      extra={
        <Flex gap={8} wrap="wrap" justify="flex-end">
          <Segmented
            size="small"
            value={view}
            onChange={(next) => setView(next as "chart" | "table")}
            options={[
              { value: "chart", label: t("chart.chart") },
              { value: "table", label: t("chart.table") },
            ]}
            aria-label={t("chart.label", { chart: title })}
          />
          <Button
            size="small"
            icon={<DownloadOutlined aria-hidden />}
            disabled={empty}
            onClick={() => downloadText(chartCsv(spec, xHeader), `${file}.csv`)}
          >
            {t("chart.csv")}
            <span className="visually-hidden"> {title}</span>
          </Button>
        </Flex>
      }
    >
      {empty ? (
        <Empty description={t("chart.noData")} />
      ) : view === "table" ? (
        <Suspense fallback={<Spin />}>
          <ChartTable spec={spec} xHeader={xHeader} />
        </Suspense>
      ) : (
        <div
          data-chart={light ? undefined : spec.key}
          role={light ? undefined : "img"}
          aria-label={light ? undefined : described}
          style={{ minHeight: light ? undefined : (height ?? 280) }}
        >
          {light ? (
            <SparkLines spec={spec} />
          ) : (
            <Suspense
              fallback={
                <Spin tip={t("loading")}>
                  <div style={{ height: height ?? 280 }} />
                </Spin>
              }
            >
              <Chart spec={spec} axes={axes} height={height} />
            </Suspense>
          )}
        </div>
      )}
    </Panel>
  );
}
