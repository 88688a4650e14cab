import { z } from "zod";

/**
 * The years of every date the API takes: 1900 to 2199. Every real date fits with room to spare
 * (the oldest record, a 90-day history, a three-year statistics range, a schedule or a settlement
 * period years ahead). Outside them a date is a typo or a probe, and the stack reads it
 * differently: the database driver's date parser takes PostgreSQL's year 0001 for 2001 and year
 * 0020 for no date at all (a 500), and JavaScript writes years past 9999 as `+010000`.
 */
export const DATE_YEARS = { min: 1900, max: 2199 } as const;

const DATE_YEARS_MESSAGE = `Must be a date in the years ${DATE_YEARS.min} to ${DATE_YEARS.max}`;

/** Whether a year (of a day, or of an instant in UTC) is in DATE_YEARS. */
export const isDateYear = (year: number): boolean =>
  year >= DATE_YEARS.min && year <= DATE_YEARS.max;

/**
 * Whether a well-formed ISO-8601 day (`YYYY-MM-DD`) or date-time is in DATE_YEARS: a date-time by
 * its instant in UTC, as it is stored and given back (`1900-01-01T00:00:00+08:00` is in 1899), so
 * that nothing taken comes back refused by the response's own schema.
 */
const inDateYears = (text: string): boolean => isDateYear(new Date(text).getUTCFullYear());

/**
 * DATE_YEARS as a pattern of the year as written (whole centuries: `19…-`, `20…-`, `21…-`), for
 * the schemas' JSON. Within hours of either end an offset may still put the instant outside.
 */
export const DATE_YEARS_PATTERN = new RegExp(
  `^(?:${Array.from(
    { length: (DATE_YEARS.max + 1 - DATE_YEARS.min) / 100 },
    (_, i) => DATE_YEARS.min / 100 + i,
  ).join("|")})\\d\\d-`,
);

/**
 * DATE_YEARS on a date or date-time schema, checked once its format holds: refused as a format
 * (a form says the field is not valid) and stated in the schema's JSON as a second pattern, so
 * that a generated client or the API's fuzz knows it. Pure, for the browser's forms too.
 */
function inYears<T extends z.ZodStringFormat>(schema: T): T {
  return schema
    .check((payload) => {
      if (payload.issues.length > 0 || inDateYears(payload.value)) return;
      payload.issues.push({
        code: "invalid_format",
        format: schema._zod.def.format,
        input: payload.value,
        message: DATE_YEARS_MESSAGE,
      });
    })
    .meta({ allOf: [{ pattern: DATE_YEARS_PATTERN.source }] });
}

/** Timestamps cross the API as ISO-8601 strings with an offset, in DATE_YEARS. */
export const isoDateTime = inYears(z.iso.datetime({ offset: true }));

/** A calendar day `YYYY-MM-DD` that exists (2026-02-30 does not), in DATE_YEARS. */
export const isoDate = inYears(z.iso.date());

/** The largest amount of money the API takes, in sen (RM 10 million): beyond any campus wallet. */
export const MAX_SEN = 1_000_000_000;

/** An amount of money staff type: whole sen, positive, at most MAX_SEN. */
export const positiveSen = z
  .int("Amount must be a whole number of sen")
  .min(1, "Amount must be positive")
  .max(MAX_SEN, `Amount must be at most ${MAX_SEN} sen`);

/** An amount of money staff type that may be nothing (a threshold): whole sen, 0 to MAX_SEN. */
export const nonNegativeSen = z
  .int("Amount must be a whole number of sen")
  .min(0, "Amount must not be negative")
  .max(MAX_SEN, `Amount must be at most ${MAX_SEN} sen`);
