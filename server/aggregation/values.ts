import { is, SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { DATE_YEARS, isDateYear } from "../../src/shared/kit/types";
import { describeJson, isBlank, type Json } from "./json";
import { AGGREGATION_LIMITS, isNumberKind, type FieldSpec } from "./types";

/** The column behind a field, or `undefined` when the field is an SQL expression. */
export function columnOf(field: FieldSpec): AnyPgColumn | undefined {
  return is(field.column, SQL) ? undefined : (field.column as AnyPgColumn);
}

/** SQL expressions are assumed nullable. */
export const isNullable = (field: FieldSpec): boolean => !(columnOf(field)?.notNull ?? false);

const SMALLINT = [-32768, 32767] as const;
const INTEGER = [-2147483648, 2147483647] as const;
const BIGINT = [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER] as const;
/** Out-of-range or fractional values would make PostgreSQL fail the query: reject them first. */
const INTEGER_RANGES: Record<string, readonly [number, number]> = {
  smallint: SMALLINT,
  smallserial: SMALLINT,
  integer: INTEGER,
  serial: INTEGER,
  bigint: BIGINT,
  bigserial: BIGINT,
};

/**
 * How a date field's bound values are cast: `date` columns compare with calendar days,
 * `timestamp` (without time zone) columns hold UTC wall time, everything else is `timestamptz`.
 */
export type DateCast = "date" | "timestamp" | "timestamptz";
export function dateCastOf(field: FieldSpec): DateCast {
  const sqlType = columnOf(field)?.getSQLType() ?? "timestamp with time zone";
  if (sqlType === "date") return "date";
  return sqlType.startsWith("timestamp") && !sqlType.includes("with time zone")
    ? "timestamp"
    : "timestamptz";
}

/**
 * A date operand: a whole UTC calendar day (from `YYYY-MM-DD`; `start`/`end` are that day and the
 * next, as `YYYY-MM-DD`) or one instant (ISO-8601, normalised to UTC with a `Z`).
 */
export type DateOperand =
  { kind: "day"; start: string; end: string } | { kind: "instant"; at: string };

export type Scalar = string | number | boolean;

/** Thrown by the coercers; the filter compiler prefixes the field and operator. */
export class ValueError extends Error {}

/**
 * A text value of a condition. A blank one is refused like a blank parameter: it is a value a
 * template lost, and `$contains`/`$startsWith` would match every row, `$ne` nearly every one.
 */
export function coerceString(value: Json): string {
  if (typeof value !== "string")
    throw new ValueError(`expects a string, got ${describeJson(value)}`);
  if (isBlank(value)) throw new ValueError("got a blank string (omit the condition instead)");
  if (value.length > AGGREGATION_LIMITS.maxStringLength) {
    throw new ValueError(`string is longer than ${AGGREGATION_LIMITS.maxStringLength} characters`);
  }
  if (value.includes("\u0000")) throw new ValueError("string must not contain NUL characters");
  return value;
}

/** Coerces a non-date value to what is bound for the field, or throws ValueError. */
export function coerceScalar(name: string, field: FieldSpec, value: Json): Scalar {
  if (isNumberKind(field.type)) return coerceNumber(field, value);
  switch (field.type) {
    case "text":
      return coerceString(value);
    case "boolean":
      if (typeof value !== "boolean") {
        throw new ValueError(`expects a boolean, got ${describeJson(value)}`);
      }
      return value;
    case "choice": {
      const values = field.values;
      // A server misconfiguration, not a client error.
      if (!values?.length)
        throw new Error(`Aggregation field "${name}" is a choice without values`);
      if (typeof value !== "string" || !values.includes(value)) {
        const got = typeof value === "string" ? JSON.stringify(value) : describeJson(value);
        throw new ValueError(
          `expects one of ${values.map((v) => `"${v}"`).join(", ")}, got ${got}`,
        );
      }
      return value;
    }
    default:
      throw new Error("date values go through coerceDate");
  }
}

function coerceNumber(field: FieldSpec, value: Json): number {
  if (typeof value !== "number") {
    throw new ValueError(`expects a number, got ${describeJson(value)}`);
  }
  const range = INTEGER_RANGES[columnOf(field)?.getSQLType() ?? ""];
  if (range && !Number.isInteger(value)) throw new ValueError("expects an integer");
  if (range && (value < range[0] || value > range[1])) {
    throw new ValueError(`expects an integer between ${range[0]} and ${range[1]}`);
  }
  return value;
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");
const formatDay = (d: Date) =>
  `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const formatInstant = (d: Date) =>
  `${formatDay(d)}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}Z`;

function utcDate(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): Date {
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d); // not Date.UTC: it maps years 0–99 to 1900–1999
  date.setUTCHours(h, mi, s, ms);
  return date;
}

/**
 * Parses `YYYY-MM-DD` (a UTC calendar day) or ISO-8601 date-time (an instant; without an offset it
 * is read as UTC). Fractions beyond milliseconds are truncated. On a `date` column an instant is
 * reduced to its UTC calendar day.
 */
export function coerceDate(field: FieldSpec, value: Json): DateOperand {
  const invalid = () =>
    new ValueError(
      `expects a date as YYYY-MM-DD or ISO-8601 (e.g. "2024-01-31T12:00:00Z"), got ${
        typeof value === "string" ? JSON.stringify(value) : describeJson(value)
      }`,
    );
  const m = typeof value === "string" ? DATE_TIME.exec(value) : null;
  if (!m) throw invalid();
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ms = Number((m[7] ?? "").padEnd(3, "0").slice(0, 3));
  if (h > 23 || mi > 59 || s > 59) throw invalid();
  const local = utcDate(y, mo, d, h, mi, s, ms);
  if (local.getUTCMonth() !== mo - 1 || local.getUTCDate() !== d) throw invalid();
  const offset = offsetMinutes(m[8]);
  if (offset === undefined) throw invalid();
  const instant = new Date(local.getTime() - offset * 60_000);
  // The API's one range of dates (src/shared/kit/types.ts), on the instant as a body's is.
  if (!isDateYear(instant.getUTCFullYear())) {
    throw new ValueError(
      `expects a date in the years ${DATE_YEARS.min} to ${DATE_YEARS.max}, got ${JSON.stringify(value)}`,
    );
  }
  if (m[4] !== undefined && dateCastOf(field) !== "date") {
    return { kind: "instant", at: formatInstant(instant) };
  }
  const start = utcDate(instant.getUTCFullYear(), instant.getUTCMonth() + 1, instant.getUTCDate());
  const end = new Date(start.getTime());
  end.setUTCDate(end.getUTCDate() + 1);
  return { kind: "day", start: formatDay(start), end: formatDay(end) };
}

/** `Z`/none → 0, `+08:00`/`-0530` → minutes east of UTC, out of range → undefined. */
function offsetMinutes(zone: string | undefined): number | undefined {
  if (zone === undefined || zone.toUpperCase() === "Z") return 0;
  const digits = zone.replace(":", "");
  const [hours, minutes] = [Number(digits.slice(1, 3)), Number(digits.slice(3, 5))];
  if (hours > 14 || minutes > 59) return undefined;
  return (digits.startsWith("-") ? -1 : 1) * (hours * 60 + minutes);
}
