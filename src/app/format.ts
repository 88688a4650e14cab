import dayjs from "dayjs";

/** A calendar day as the API takes it in queries and bodies (dayjs's format). */
export const DAY_FORMAT = "YYYY-MM-DD";

/**
 * docs/backoffice.md's display format is DD MMM YYYY. In Chinese, "19 9月 2026" reads wrongly,
 * so the Chinese console uses the conventional 2026年9月19日. The active dayjs locale (set with
 * the language) decides.
 */
const DATE_FORMATS: Record<string, string> = { en: "DD MMM YYYY", "zh-cn": "YYYY年M月D日" };

function dateFormat(): string {
  return DATE_FORMATS[dayjs.locale()] ?? "DD MMM YYYY";
}

function format(iso: string | null | undefined, pattern: string, fallback: string): string {
  if (!iso) return fallback;
  const date = dayjs(iso);
  return date.isValid() ? date.format(pattern) : fallback;
}

/** A date for people to read; `fallback` when there is none (e.g. never logged in). */
export function formatDate(iso: string | null | undefined, fallback = "—"): string {
  return format(iso, dateFormat(), fallback);
}

/** Date and time, for moments where the hour matters (last login). */
export function formatDateTime(iso: string | null | undefined, fallback = "—"): string {
  return format(iso, `${dateFormat()} HH:mm`, fallback);
}

/** How far back a moment is, in the largest unit that fits. */
const TIME_AGO_UNITS: ReadonlyArray<readonly [Intl.RelativeTimeFormatUnit, number]> = [
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
];

/**
 * A moment as people say it, in the active language: "5 minutes ago", "yesterday", "now" (under a
 * minute); `fallback` when there is none. Shown beside the date and time, never instead of it.
 */
export function formatTimeAgo(
  iso: string | null | undefined,
  now: number = Date.now(),
  fallback = "—",
): string {
  const date = iso ? dayjs(iso) : undefined;
  if (!date?.isValid()) return fallback;
  const seconds = Math.max(0, Math.round((now - date.valueOf()) / 1000));
  const relative = new Intl.RelativeTimeFormat(dayjs.locale() === "zh-cn" ? "zh-CN" : "en", {
    numeric: "auto",
  });
  const [unit, size] = TIME_AGO_UNITS.find(([, size]) => seconds >= size) ?? ["second", 0];
  return relative.format(size === 0 ? 0 : -Math.floor(seconds / size), unit);
}

const wholeNumber = new Intl.NumberFormat("en-US");

/**
 * A list's total as people read it: "1,234", or "1,000+" when the server stopped counting there
 * (`totalCountExact: false`, see the data provider).
 */
export function formatTotal(total: number, exact = true): string {
  return `${wholeNumber.format(total)}${exact ? "" : "+"}`;
}
