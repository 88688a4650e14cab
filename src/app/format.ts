import dayjs from "dayjs";

/** backoffice.md display format; month names follow the active dayjs locale. */
export const DISPLAY_DATE_FORMAT = "DD MMM YYYY";

/** A date for people to read; `fallback` when there is none (e.g. never logged in). */
export function formatDate(iso: string | null | undefined, fallback = "—"): string {
  if (!iso) return fallback;
  const date = dayjs(iso);
  return date.isValid() ? date.format(DISPLAY_DATE_FORMAT) : fallback;
}

/** Date and time, for moments where the hour matters (last login). */
export function formatDateTime(iso: string | null | undefined, fallback = "—"): string {
  if (!iso) return fallback;
  const date = dayjs(iso);
  return date.isValid() ? date.format(`${DISPLAY_DATE_FORMAT} HH:mm`) : fallback;
}
