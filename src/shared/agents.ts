/**
 * Rules for top-up agents (docs/domain.md, "Agents"), shared by the server's validation and the
 * console's forms so both say the same thing.
 */

/**
 * The closed set of agent types. `campus` (a counter or kiosk run on campus) and `external` (an
 * off-campus shop) are the types the existing data holds; `merchant` is a campus merchant that
 * also tops up wallets at its till.
 */
export const AGENT_TYPES = ["campus", "merchant", "external"] as const;
export type AgentType = (typeof AGENT_TYPES)[number];

/** A commission rate is a percentage from 0 to 100 with at most two decimals (basis points). */
export const COMMISSION_RATE_MIN_PERCENT = 0;
export const COMMISSION_RATE_MAX_PERCENT = 100;
export const COMMISSION_RATE_MESSAGE =
  "Must be a percentage from 0 to 100 with at most two decimals";

const PERCENT = /^(\d{1,3})(?:\.(\d{1,2}))?$/;

/**
 * `12.34` or `"12.34"` → 1234 basis points; undefined when the value is not a percentage from 0
 * to 100 with at most two decimals. Works on the decimal text, never multiplies floats: 0.29 × 100
 * is 28.999… in floating point. A JSON number keeps its written digits through `String()` (the
 * shortest round-trip form), so `1.234` is seen as three decimals and refused.
 */
export function percentToBasisPoints(value: number | string): number | undefined {
  if (typeof value === "number" && !Number.isFinite(value)) return undefined;
  const match = PERCENT.exec(typeof value === "number" ? String(value) : value.trim());
  if (!match) return undefined;
  const basisPoints = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return basisPoints <= COMMISSION_RATE_MAX_PERCENT * 100 ? basisPoints : undefined;
}
