/**
 * The header on every answer to a signed-in administrator naming the newest live event the
 * answering instance knew when the request began: the answer's data is at least that new, so a
 * console opening its stream later resumes from there and misses nothing (docs/live-updates.md).
 */
export const LIVE_MOMENT_HEADER = "Live-Event-Id";
