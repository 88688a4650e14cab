/**
 * Input rules of the user actions, shared by the server's schemas and the console's forms so that
 * both refuse the same input with the same limits.
 */

/** Remarks on approvals, bans and contact changes: one rule, the module kit's. */
export { REMARK_MAX_LENGTH } from "./kit/module";

/** A user's URL: http or https only, at most this many characters. */
export const USER_URL_MAX_LENGTH = 2048;
export const USER_URL_PROTOCOLS = ["http:", "https:"] as const;

/** The buyer picker searches from this many characters on, and shows at most this many users. */
export const BUYER_SEARCH_MIN_LENGTH = 2;
export const BUYER_SEARCH_MAX_RESULTS = 20;

/** Whether `value` is an absolute http(s) URL (javascript:, ftp: or no scheme are refused). */
export function isHttpUrl(value: string): boolean {
  // Browsers read "\\" as "/" in http URLs, so "https:\\evil.example" goes somewhere else than it
  // appears to; whitespace inside a URL is never meant.
  if (/[\\\s]/.test(value)) return false;
  try {
    const url = new URL(value);
    return (USER_URL_PROTOCOLS as readonly string[]).includes(url.protocol) && url.host !== "";
  } catch {
    return false;
  }
}
