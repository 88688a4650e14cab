/**
 * The one module that imports the chart library (@ant-design/plots, on AntV G2): loaded with
 * React.lazy by ChartCard, so only the Statistic screen and the dashboard download it.
 */
import { Bar, Column, Line } from "@ant-design/plots";
import { theme } from "antd";

import { formatRinggit } from "../../shared/money";
import { formatDate } from "../format";
import type { ChartSpec } from "./chart-data";

const whole = new Intl.NumberFormat("en-US");

/** Dark when antd's container background is dark (a dark algorithm), light otherwise. */
function isDark(colour: string): boolean {
  const hex = /^#([0-9a-f]{6})$/i.exec(colour)?.[1];
  if (!hex) return false;
  const [r, g, b] = [0, 2, 4].map((at) => parseInt(hex.slice(at, at + 2), 16));
  return 0.299 * r! + 0.587 * g! + 0.114 * b! < 128;
}

export default function Chart({ spec, height = 280 }: { spec: ChartSpec; height?: number }) {
  const { token } = theme.useToken();
  const value = (v: number) => (spec.money ? formatRinggit(Math.round(v * 100)) : whole.format(v));
  const x = (v: string) => (spec.dates ? formatDate(`${v}T00:00:00`) : v);
  const config = {
    data: spec.points,
    xField: "x",
    yField: "value",
    colorField: "series",
    height,
    autoFit: true,
    theme: isDark(token.colorBgContainer) ? "classicDark" : "classic",
    axis: {
      x: { labelFormatter: x, labelAutoHide: true, labelAutoRotate: false, title: false },
      y: { labelFormatter: value, title: false },
    },
    legend: { color: { position: "bottom" as const, layout: { justifyContent: "center" } } },
    tooltip: {
      title: (datum: { x: string }) => x(datum.x),
      items: [{ channel: "y", valueFormatter: value }],
    },
    style: { fontFamily: token.fontFamily },
  };
  if (spec.kind === "line")
    return <Line {...config} point={{ shapeField: "circle", sizeField: 2 }} />;
  if (spec.kind === "bar") return <Bar {...config} group />;
  return spec.stacked ? <Column {...config} stack /> : <Column {...config} group />;
}
