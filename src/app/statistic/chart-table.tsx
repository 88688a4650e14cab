import { Table } from "antd";

import { formatRinggit } from "../../shared/money";
import { formatDate } from "../format";
import { chartTable, type ChartSpec } from "./chart-data";

const whole = new Intl.NumberFormat("en-US");

/** A chart's rows as a table: one row per x, one column per series (its CSV's layout). */
export default function ChartTable({ spec, xHeader }: { spec: ChartSpec; xHeader: string }) {
  const { series, rows } = chartTable(spec);
  const x = (value: string) => (spec.dates ? formatDate(`${value}T00:00:00`) : value);
  const shown = (value: number) =>
    spec.money ? formatRinggit(Math.round(value * 100)) : whole.format(value);
  return (
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
  );
}
