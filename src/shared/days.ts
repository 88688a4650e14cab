/**
 * Calendar days as the API speaks them (`YYYY-MM-DD`), for the server's business days and the
 * console's date pickers alike: one rule for counting a period's days on both sides.
 */

const DAY_MS = 86_400_000;

/** The calendar day `days` after `day` (both `YYYY-MM-DD`; negative goes back). */
export const addDays = (day: string, days: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** How many calendar days `from` to `to` spans, both counted (`YYYY-MM-DD`). */
export const daysSpanned = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
