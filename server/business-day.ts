/**
 * Business days: the campus runs on one time zone (BUSINESS_TIMEZONE, default Asia/Kuala_Lumpur).
 * "Today", a date filter `YYYY-MM-DD` and a daily limit are days in that zone, not UTC days. The
 * zone is one setting of the process, set from the configuration when the app is built.
 */
import { sql, type Placeholder, type SQL } from "drizzle-orm";

import { DEFAULT_BUSINESS_TIMEZONE } from "./config";

let zone = DEFAULT_BUSINESS_TIMEZONE;

export function setBusinessTimeZone(timeZone: string): void {
  zone = timeZone;
}

export const businessTimeZone = () => zone;

/**
 * The instant a business day `YYYY-MM-DD` starts, as SQL (`timestamptz`), in the process's zone
 * or `timeZone`. A statement built once takes both as placeholders (the zone is set when an app
 * is built, after the statement may have been).
 */
export const businessDayStart = (
  day: string | SQL | Placeholder,
  timeZone: string | SQL | Placeholder = zone,
): SQL => sql`(${day}::timestamp at time zone ${timeZone})`;

export { addDays, daysSpanned } from "../src/shared/days";

/** The formatter of the zone's days, made once per zone (making one costs more than using it). */
let dayFormat: { zone: string; format: Intl.DateTimeFormat } | undefined;

/** The business day (`YYYY-MM-DD`) holding `at`. */
export function businessDayOf(at: Date): string {
  if (dayFormat?.zone !== zone) {
    dayFormat = {
      zone,
      format: new Intl.DateTimeFormat("en-CA", {
        timeZone: zone,
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
      }),
    };
  }
  return dayFormat.format.format(at);
}
