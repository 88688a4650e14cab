/**
 * The one module that imports the chart library (@ant-design/plots, on AntV G2): loaded with
 * React.lazy by ChartCard, so only the Statistic screen and the dashboard download it. The axes
 * are ChartCard's (`chartAxes`): G2 draws exactly those ticks, titles and labels.
 */
import { Bar, Column, Line } from "@ant-design/plots";
import { theme } from "antd";

import { formatRinggit } from "../../shared/money";
import { formatDate } from "../format";
import { seriesOf, type ChartAxes, type ChartSpec } from "./chart-data";

const whole = new Intl.NumberFormat("en-US");

/** Dark when antd's container background is dark (a dark algorithm), light otherwise. */
function isDark(colour: string): boolean {
  const hex = /^#([0-9a-f]{6})$/i.exec(colour)?.[1];
  if (!hex) return false;
  const [r, g, b] = [0, 2, 4].map((at) => parseInt(hex.slice(at, at + 2), 16));
  return 0.299 * r! + 0.587 * g! + 0.114 * b! < 128;
}

export default function Chart({
  spec,
  axes,
  height = 280,
}: {
  spec: ChartSpec;
  axes: ChartAxes;
  height?: number;
}) {
  const { token } = theme.useToken();
  const value = (v: number) => (spec.money ? formatRinggit(Math.round(v * 100)) : whole.format(v));
  const x = (v: string) => (spec.dates ? formatDate(`${v}T00:00:00`) : v);
  const xLabels = new Map(axes.x.ticks.map((tick) => [tick.value, tick.label]));
  const yLabels = new Map(axes.y.ticks.map((tick) => [tick.value, tick.label]));
  const yTicks = axes.y.ticks.map((tick) => tick.value);
  const axisText = { labelFill: token.colorTextSecondary, titleFill: token.colorTextSecondary };
  const config = {
    data: spec.points,
    xField: "x",
    yField: "value",
    colorField: "series",
    height,
    autoFit: true,
    // Room for the last date and the widest amount, centred on their ticks at the right edge.
    marginRight: 48,
    theme: isDark(token.colorBgContainer) ? "classicDark" : "classic",
    scale: { y: { domain: [0, axes.y.max], nice: false, tickMethod: () => yTicks } },
    axis: {
      x: {
        title: axes.x.title,
        tickFilter: (tick: string) => xLabels.has(tick),
        labelFormatter: (tick: string) => xLabels.get(tick) ?? "",
        labelAutoHide: false,
        labelAutoRotate: false,
        ...axisText,
      },
      y: {
        title: axes.y.title,
        tickMethod: () => yTicks,
        labelFormatter: (tick: number) => yLabels.get(tick) ?? value(tick),
        labelAutoHide: false,
        labelAutoRotate: false,
        grid: true,
        ...axisText,
      },
    },
    legend:
      seriesOf(spec).length > 1
        ? { color: { position: "bottom" as const, layout: { justifyContent: "center" } } }
        : false,
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
