import { Flex, theme } from "antd";

import { formatRinggit } from "../../shared/money";
import { formatDate } from "../format";
import { chartTable, type ChartSpec } from "./chart-data";

const WIDTH = 600;
const HEIGHT = 160;
const PAD = { left: 8, right: 8, top: 12, bottom: 20 };

/**
 * A small line chart drawn as SVG, for the dashboard's trend: the dashboard is the console's
 * first screen, and the chart library (hundreds of kB) would more than double what it loads.
 * The Statistic screen draws with the library; this reads the same rows (ChartSpec).
 */
export function SparkLines({ spec }: { spec: ChartSpec }) {
  const { token } = theme.useToken();
  const { series, rows } = chartTable(spec);
  const colours = [token.colorPrimary, token.colorWarning, token.colorSuccess, token.colorError];
  const max = Math.max(1, ...rows.flatMap(([, values]) => values));
  const x = (index: number) =>
    PAD.left + (rows.length < 2 ? 0 : (index / (rows.length - 1)) * (WIDTH - PAD.left - PAD.right));
  const y = (value: number) => PAD.top + (1 - value / max) * (HEIGHT - PAD.top - PAD.bottom);
  const label = (value: number) =>
    spec.money ? formatRinggit(Math.round(value * 100)) : String(value);
  const day = (value: string | undefined) => (value ? formatDate(`${value}T00:00:00`) : "");
  return (
    <figure style={{ margin: 0 }} data-chart={spec.key}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        role="img"
        aria-label={series.join(", ")}
        style={{ display: "block", overflow: "visible" }}
      >
        <line
          x1={PAD.left}
          x2={WIDTH - PAD.right}
          y1={y(0)}
          y2={y(0)}
          stroke={token.colorBorderSecondary}
        />
        <text x={PAD.left} y={PAD.top - 2} fontSize={11} fill={token.colorTextSecondary}>
          {label(max)}
        </text>
        {series.map((name, index) => (
          <polyline
            key={name}
            fill="none"
            stroke={colours[index % colours.length]}
            strokeWidth={2}
            points={rows.map(([, values], at) => `${x(at)},${y(values[index] ?? 0)}`).join(" ")}
          />
        ))}
        <text x={PAD.left} y={HEIGHT - 4} fontSize={11} fill={token.colorTextSecondary}>
          {day(rows[0]?.[0])}
        </text>
        <text
          x={WIDTH - PAD.right}
          y={HEIGHT - 4}
          fontSize={11}
          textAnchor="end"
          fill={token.colorTextSecondary}
        >
          {day(rows.at(-1)?.[0])}
        </text>
      </svg>
      <Flex
        component="figcaption"
        gap={16}
        wrap="wrap"
        justify="center"
        style={{ fontSize: token.fontSizeSM }}
      >
        {series.map((name, index) => (
          <span key={name}>
            <span
              aria-hidden
              style={{
                display: "inline-block",
                width: 12,
                height: 3,
                marginRight: 6,
                verticalAlign: "middle",
                background: colours[index % colours.length],
              }}
            />
            {name}
          </span>
        ))}
      </Flex>
    </figure>
  );
}
