import { daysSpanned } from "../business-day";
import { HttpError } from "../errors";

/**
 * A period's checks beyond its shape (two `YYYY-MM-DD` days, both counted), for every route that
 * takes one: `to` before `from` is 400 RANGE_REVERSED; more than `limit.maxDays` days is 400 with
 * the route's own code and `data.maxDays`. A longer period is refused, never cut short.
 */
export function checkPeriod(
  { from, to }: { from: string; to: string },
  limit: { maxDays: number; code: string; what: string },
): void {
  if (to < from) {
    throw new HttpError(400, "Invalid to: The period ends before it starts", "RANGE_REVERSED");
  }
  if (daysSpanned(from, to) > limit.maxDays) {
    throw new HttpError(
      400,
      `Invalid to: ${limit.what} covers at most ${limit.maxDays} days`,
      limit.code,
      { maxDays: limit.maxDays },
    );
  }
}
