/**
 * What each chart draws, as plain rows `{ x, series, value }`: the chart, its table and its CSV
 * all read the same rows, so the CSV is what is drawn. Money is drawn in ringgit (sen / 100).
 */
import { LEDGER_CHANNELS, USER_ROLES } from "../../shared/domain";
import type { Statistics, StatisticsBucket } from "../../shared/schemas/statistics";
import { csvCell } from "../kit/csv";

export interface ChartPoint {
  /** A bucket's first day (`YYYY-MM-DD`), a channel's or a merchant's name. */
  x: string;
  series: string;
  value: number;
}

export type ChartKind = "line" | "column" | "bar";

export interface ChartSpec {
  key: string;
  kind: ChartKind;
  /** Values are ringgit. */
  money: boolean;
  /** x is a day (`YYYY-MM-DD`), shown in the language's date format. */
  dates: boolean;
  /** Columns of a bucket stacked rather than side by side. */
  stacked?: boolean;
  points: ChartPoint[];
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

const ringgit = (sen: number) => sen / 100;

function overTime(
  series: readonly StatisticsBucket[],
  lines: ReadonlyArray<[name: string, pick: (bucket: StatisticsBucket) => number]>,
): ChartPoint[] {
  return series.flatMap((bucket) =>
    lines.map(([name, pick]) => ({ x: bucket.bucket, series: name, value: pick(bucket) })),
  );
}

/** The Statistic screen's charts, in the order drawn. */
export function statisticCharts(data: Statistics, t: Translate): ChartSpec[] {
  const current = t("statistic:period.current");
  const previous = t("statistic:period.previous");
  return [
    {
      key: "money",
      kind: "line",
      money: true,
      dates: true,
      points: overTime(data.series, [
        [t("statistic:figures.topUpSen"), (b) => ringgit(b.topUpSen)],
        [t("statistic:figures.paymentSen"), (b) => ringgit(b.paymentSen)],
        [t("statistic:figures.refundSen"), (b) => ringgit(b.refundSen)],
        [t("statistic:figures.settlementSen"), (b) => ringgit(b.settlementSen)],
      ]),
    },
    {
      key: "newUsers",
      kind: "column",
      money: false,
      dates: true,
      stacked: true,
      points: overTime(
        data.series,
        USER_ROLES.map((role) => [t(`users:role.${role}`), (b) => b.newUsersByRole[role]]),
      ),
    },
    {
      key: "activity",
      kind: "line",
      money: false,
      dates: true,
      points: overTime(data.series, [
        [t("statistic:figures.activeUsers"), (b) => b.activeUsers],
        [t("statistic:figures.topUps"), (b) => b.topUps],
        [t("statistic:figures.payments"), (b) => b.payments],
      ]),
    },
    {
      key: "channels",
      kind: "column",
      money: true,
      dates: false,
      points: LEDGER_CHANNELS.flatMap((channel) => {
        const { sen } = data.topUpsByChannel[channel];
        const x = t(`topUp:channel.${channel}`);
        return [
          { x, series: current, value: ringgit(sen.current) },
          { x, series: previous, value: ringgit(sen.previous) },
        ];
      }),
    },
    {
      key: "merchants",
      kind: "bar",
      money: true,
      dates: false,
      points: data.topMerchants.flatMap((merchant) => [
        { x: merchant.businessName, series: current, value: ringgit(merchant.grossSen) },
        { x: merchant.businessName, series: previous, value: ringgit(merchant.previousGrossSen) },
      ]),
    },
  ];
}

/** The 14-day trend of the dashboard: top-ups and payments per day, in ringgit. */
export function trendChart(
  days: ReadonlyArray<{ day: string; topUpSen?: number; paymentSen?: number }>,
  names: { topUpSen: string; paymentSen: string },
): ChartSpec {
  const points: ChartPoint[] = days.flatMap((day) => [
    ...(day.topUpSen === undefined
      ? []
      : [{ x: day.day, series: names.topUpSen, value: ringgit(day.topUpSen) }]),
    ...(day.paymentSen === undefined
      ? []
      : [{ x: day.day, series: names.paymentSen, value: ringgit(day.paymentSen) }]),
  ]);
  return { key: "trend", kind: "line", money: true, dates: true, points };
}

/** A chart's rows as CSV: one column for x, one per series (as its table shows them). */
export function chartTable(spec: ChartSpec): { series: string[]; rows: Array<[string, number[]]> } {
  const series = [...new Set(spec.points.map((point) => point.series))];
  const byX = new Map<string, number[]>();
  for (const point of spec.points) {
    const row = byX.get(point.x) ?? series.map(() => 0);
    row[series.indexOf(point.series)] = point.value;
    byX.set(point.x, row);
  }
  return { series, rows: [...byX.entries()] };
}

/** Values in the CSV: ringgit with two decimals, counts whole. */
export const csvValue = (spec: ChartSpec, value: number) =>
  spec.money ? value.toFixed(2) : String(value);

export function chartCsv(spec: ChartSpec, xHeader: string): string {
  const { series, rows } = chartTable(spec);
  const lines = [
    [xHeader, ...series].map(csvCell).join(","),
    ...rows.map(([x, values]) =>
      [x, ...values.map((value) => csvValue(spec, value))].map(csvCell).join(","),
    ),
  ];
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}
