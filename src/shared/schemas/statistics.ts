import { z } from "zod";

import { LEDGER_CHANNELS, USER_ROLES } from "../domain";
import { isoDate } from "./common";

export const STATISTICS_GRANULARITIES = ["day", "week", "month"] as const;
export type StatisticsGranularity = (typeof STATISTICS_GRANULARITIES)[number];

/** The longest range a statistics request may span: three years. */
export const STATISTICS_MAX_YEARS = 3;

export const statisticsQuerySchema = z.strictObject({
  from: isoDate.describe("First business day of the range (BUSINESS_TIMEZONE)"),
  to: isoDate.describe("Last business day of the range, included"),
  granularity: z
    .enum(STATISTICS_GRANULARITIES, "granularity must be day, week or month")
    .describe("Buckets of the series: days, weeks from Monday, or calendar months"),
});
export type StatisticsQuery = z.infer<typeof statisticsQuerySchema>;

const count = z.number().int().nonnegative();
const sen = z.number().int();

/** A figure over the range and over the previous range of the same length. */
const compared = (value: z.ZodNumber) => z.object({ current: value, previous: value });

/** The figures every bucket and both periods have. */
export const STATISTIC_FIGURES = [
  "newUsers",
  "activeUsers",
  "topUps",
  "topUpSen",
  "payments",
  "paymentSen",
  "refunds",
  "refundSen",
  "settlementsPaid",
  "settlementSen",
] as const;
export type StatisticFigure = (typeof STATISTIC_FIGURES)[number];
/** Figures that are amounts in sen. */
export const MONEY_FIGURES: ReadonlySet<StatisticFigure> = new Set([
  "topUpSen",
  "paymentSen",
  "refundSen",
  "settlementSen",
]);

const figureShape = <T extends z.ZodType>(of: (figure: StatisticFigure) => T) =>
  Object.fromEntries(STATISTIC_FIGURES.map((figure) => [figure, of(figure)])) as Record<
    StatisticFigure,
    T
  >;
const byKey = <K extends string, T extends z.ZodType>(keys: readonly K[], value: T) =>
  z.object(Object.fromEntries(keys.map((key) => [key, value])) as Record<K, T>);

const valueOf = (figure: StatisticFigure) => (MONEY_FIGURES.has(figure) ? sen : count);

export const statisticsBucketSchema = z.object({
  /** The bucket's first day inside the range (a week or month cut by the range starts later). */
  bucket: z.iso.date(),
  ...figureShape(valueOf),
  newUsersByRole: byKey(USER_ROLES, count),
  topUpsByChannel: byKey(LEDGER_CHANNELS, z.object({ count, sen })),
});
export type StatisticsBucket = z.infer<typeof statisticsBucketSchema>;

export const statisticsSchema = z
  .object({
    from: z.iso.date(),
    to: z.iso.date(),
    granularity: z.enum(STATISTICS_GRANULARITIES),
    previousFrom: z.iso.date(),
    previousTo: z.iso.date(),
    totals: z.object(figureShape((figure) => compared(valueOf(figure)))),
    newUsersByRole: byKey(USER_ROLES, compared(count)),
    topUpsByChannel: byKey(
      LEDGER_CHANNELS,
      z.object({ count: compared(count), sen: compared(sen) }),
    ),
    topMerchants: z.array(
      z.object({
        businessId: z.number().int(),
        businessName: z.string(),
        paymentCount: count,
        grossSen: sen,
        previousGrossSen: sen,
      }),
    ),
    series: z.array(statisticsBucketSchema),
  })
  .meta({ id: "Statistics" });
export type Statistics = z.infer<typeof statisticsSchema>;
