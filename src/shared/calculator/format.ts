/**
 * How the calculator's figures are written, shared by the page and the server's e-mail so both
 * show the same text. Pure: no React, no DOM, no locale (digits and separators are the same in
 * both of the product's languages; unit words are translated by the caller).
 */
import { formatRinggit as formatConsoleRinggit } from "../money";
import type { RatioUnit } from "./ratios";

/** U+2212: a real minus sign, read as "minus" by screen readers and as wide as the digits. */
export const MINUS = "\u2212";

const groupThousands = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/**
 * Integer sen as ringgit: `123456` → `RM 1,234.56`, `-123456` → `−RM 1,234.56`. The digits come
 * from the console's formatter (src/shared/money.ts); only the sign differs, because the
 * calculator shows negative net worth with a typographic minus.
 */
export function formatRinggit(sen: number): string {
  return formatConsoleRinggit(sen).replace(/^-/, MINUS);
}

/**
 * A number to one decimal, rounded half away from zero on the decimal value (`1.45` → `1.5`,
 * where `toFixed` would give `1.4`), grouped in thousands, with no `−0.0`.
 */
function oneDecimal(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`Not a figure: ${value}`);
  // The 1e-9 nudge undoes binary representation error (1.45 is stored as 1.4499999…).
  const tenths = Math.round(Math.abs(value) * 10 + 1e-9);
  const text = `${groupThousands(String(Math.floor(tenths / 10)))}.${tenths % 10}`;
  return value < 0 && tenths > 0 ? `${MINUS}${text}` : text;
}

/** A percentage (35 means 35 %) to one decimal: `35` → `35.0%`, `-12.34` → `−12.3%`. */
export function formatPercent(value: number): string {
  return `${oneDecimal(value)}%`;
}

/** A number of months to one decimal, without the unit word: `3.456` → `3.5`. */
export function formatMonths(value: number): string {
  return oneDecimal(value);
}

/**
 * A ratio's figure in its unit, without a unit word: percent → `35.0%`, rm (sen) → `RM 1.00`,
 * months → `3.5` (the caller adds the translated `units.months`, e.g. "3.5 months").
 */
export function formatRatioValue(unit: RatioUnit, value: number): string {
  if (unit === "percent") return formatPercent(value);
  if (unit === "rm") return formatRinggit(value);
  return formatMonths(value);
}
