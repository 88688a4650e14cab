import { DownloadOutlined } from "@ant-design/icons";
import { Button, Empty, Flex, Segmented, Spin, Table } from "antd";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";

import { formatRinggit } from "../../shared/money";
import { Panel } from "../components/panel";
import { formatDate } from "../format";
import { downloadText } from "../kit/csv";
import { chartCsv, chartTable, type ChartSpec } from "./chart-data";

// The chart library's own chunk: fetched when a chart is first drawn.
const Chart = lazy(() => import("./charts"));

const whole = new Intl.NumberFormat("en-US");

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
}: {
  spec: ChartSpec;
  title: string;
  /** The CSV's and the table's first column: Day, Channel, Merchant. */
  xHeader: string;
  file: string;
  height?: number;
}) {
  const { t } = useTranslation("statistic");
  const [view, setView] = useState<"chart" | "table">("chart");
  const empty = spec.points.length === 0;
  const { series, rows } = chartTable(spec);
  const x = (value: string) => (spec.dates ? formatDate(`${value}T00:00:00`) : value);
  const shown = (value: number) =>
    spec.money ? formatRinggit(Math.round(value * 100)) : whole.format(value);

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
              { value: "chart", label: t("view.chart") },
              { value: "table", label: t("view.table") },
            ]}
            aria-label={t("view.label", { chart: title })}
          />
          <Button
            size="small"
            icon={<DownloadOutlined aria-hidden />}
            disabled={empty}
            onClick={() => downloadText(chartCsv(spec, xHeader), `${file}.csv`)}
          >
            {t("csv")}
            <span className="visually-hidden"> {title}</span>
          </Button>
        </Flex>
      }
    >
      {empty ? (
        <Empty description={t("noData")} />
      ) : view === "table" ? (
        <Table
          size="small"
          rowKey={([key]) => key}
          dataSource={rows}
          pagination={rows.length > 31 ? { pageSize: 31, showSizeChanger: false } : false}
          scroll={{ x: "max-content" }}
          columns={[
            { key: "x", title: xHeader, render: (_, [key]) => x(key) },
            ...series.map((name, index) => ({
              key: name,
              title: name,
              align: "right" as const,
              render: (_: unknown, [, values]: [string, number[]]) => shown(values[index] ?? 0),
            })),
          ]}
        />
      ) : (
        <div data-chart={spec.key} style={{ minHeight: height ?? 280 }}>
          <Suspense
            fallback={
              <Spin tip={t("common:loading")}>
                <div style={{ height: height ?? 280 }} />
              </Spin>
            }
          >
            <Chart spec={spec} height={height} />
          </Suspense>
        </div>
      )}
    </Panel>
  );
}
