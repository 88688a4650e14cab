/**
 * What each chart draws, as plain rows `{ x, series, value }`: the chart, its table and its CSV
 * all read the same rows, so the CSV is what is drawn. Money is drawn in ringgit (sen / 100).
 */
import { LEDGER_CHANNELS, USER_ROLES } from "../../shared/domain";
import type { Statistics, StatisticsBucket } from "../../shared/schemas/statistics";
import { formatRinggit } from "../../shared/money";
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
  const series = seriesOf(spec);
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

/** One labelled tick of an axis: where it is (an x value, or a y number) and what it reads. */
export interface AxisTick<T> {
  value: T;
  label: string;
}

/** What a chart's axes show: their titles (the unit on y) and their labelled ticks. */
export interface ChartAxes {
  x: { title: string; ticks: Array<AxisTick<string>> };
  y: { title: string; max: number; ticks: Array<AxisTick<number>> };
}

/** At most this many labels along a date axis: "30 Oct 2026" is wide, a chart half a screen. */
const DATE_TICKS = 4;
/** About this many steps up the value axis ("RM 20,000" is wide along a bar chart too). */
const VALUE_TICKS = 4;

/**
 * Round steps up an axis from 0 to at least `max`: 1, 2 or 5 times a power of ten, whole for
 * counts (no "0.2 users").
 */
function valueTicks(max: number, whole: boolean): number[] {
  const top = max > 0 ? max : 1;
  const rough = top / VALUE_TICKS;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(
    whole ? 1 : 0,
    [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= rough)!,
  );
  const count = Math.ceil(top / step - 1e-9);
  // Rounded to the step's decimals, so 0.1 × 3 reads 0.3, not 0.30000000000000004.
  const decimals = Math.max(0, -Math.floor(Math.log10(step)));
  return Array.from({ length: count + 1 }, (_, index) => Number((index * step).toFixed(decimals)));
}

/** The largest value a chart stacks or draws: the y axis reaches at least this. */
function highest(spec: ChartSpec): number {
  if (!spec.stacked) return Math.max(0, ...spec.points.map((point) => point.value));
  const sums = new Map<string, number>();
  for (const point of spec.points) sums.set(point.x, (sums.get(point.x) ?? 0) + point.value);
  return Math.max(0, ...sums.values());
}

const wholeNumber = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

/** Ticks as an axis reads them: counts, or ringgit as "RM 1,500" (with sen only in sen steps). */
function tickLabels(spec: ChartSpec, ticks: number[]): string[] {
  if (!spec.money) return ticks.map((tick) => wholeNumber.format(tick));
  if (ticks.every(Number.isInteger)) return ticks.map((tick) => `RM ${wholeNumber.format(tick)}`);
  return ticks.map((tick) => formatRinggit(Math.round(tick * 100)));
}

/**
 * A chart's axes: x titled `titles.x` (Day, Channel, Merchant), its dates in the console's format
 * and language (`formatDay`), at most DATE_TICKS of them labelled, evenly spread, the last
 * always; y titled by its unit (`titles.y`: RM or a count), with round ticks from 0.
 */
export function chartAxes(
  spec: ChartSpec,
  titles: { x: string; y: string },
  formatDay: (day: string) => string,
): ChartAxes {
  const xs = [...new Set(spec.points.map((point) => point.x))];
  const every = spec.dates ? Math.max(1, Math.ceil(xs.length / DATE_TICKS)) : 1;
  const xTicks = xs
    .filter((_, index) => (xs.length - 1 - index) % every === 0)
    .map((x) => ({ value: x, label: spec.dates ? formatDay(x) : x }));
  const ys = valueTicks(highest(spec), !spec.money);
  const labels = tickLabels(spec, ys);
  return {
    x: { title: titles.x, ticks: xTicks },
    y: {
      title: titles.y,
      max: ys.at(-1)!,
      ticks: ys.map((value, index) => ({ value, label: labels[index]! })),
    },
  };
}

/** The series a chart draws, in order: a legend names them when there are several. */
export function seriesOf(spec: ChartSpec): string[] {
  return [...new Set(spec.points.map((point) => point.series))];
}
