import { HttpError } from "../errors";

/** How long a failed login counts against its address. */
const WINDOW_MS = 60_000;
/** Logins of one address checked at the same time; more wait for none of the hashing slots. */
const CONCURRENT_PER_ADDRESS = 2;
/** Addresses remembered at most; past this the oldest windows are forgotten first. */
const MAX_ADDRESSES = 50_000;

export interface LoginGuard {
  /**
   * Before any hashing: throws 429 RATE_LIMITED when `address` failed too often in the last
   * minute, or already has logins being checked; else counts this attempt as under way.
   */
  begin(address: string): void;
  /** The attempt is over: a failure counts against the address for a minute. */
  end(address: string, succeeded: boolean): void;
}

const tooMany = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, message, "RATE_LIMITED", { retryAfterSeconds });

/**
 * Failed logins per client address across every e-mail it tries (password spraying): the per
 * address-and-e-mail limit lets one address try a different e-mail each time, and each attempt
 * costs a full password hash. An attempt under way counts as a failure until it succeeds, and an
 * address has at most two under way, so a spray can neither race past the limit nor fill the
 * hashing queue ahead of other addresses' logins. Counted in this process, like the other limit.
 */
export function createLoginGuard(limit: number): LoginGuard {
  const failures = new Map<string, number[]>();
  const underWay = new Map<string, number>();
  const recent = (address: string, now: number) =>
    (failures.get(address) ?? []).filter((at) => at > now - WINDOW_MS);

  return {
    begin(address) {
      const now = Date.now();
      const list = recent(address, now);
      const busy = underWay.get(address) ?? 0;
      if (list.length + busy >= limit) {
        const retry = Math.max(1, Math.ceil(((list[0] ?? now) + WINDOW_MS - now) / 1000));
        throw tooMany(`Too many failed logins from this address, retry in ${retry} seconds`, retry);
      }
      if (busy >= CONCURRENT_PER_ADDRESS) {
        throw tooMany("Too many logins at once from this address, retry in 1 second", 1);
      }
      underWay.set(address, busy + 1);
    },
    end(address, succeeded) {
      const busy = (underWay.get(address) ?? 1) - 1;
      if (busy > 0) underWay.set(address, busy);
      else underWay.delete(address);
      if (succeeded) return;
      const now = Date.now();
      const list = recent(address, now);
      list.push(now);
      failures.delete(address);
      failures.set(address, list);
      // Maps iterate in insertion order: the first key is the address that failed longest ago.
      while (failures.size > MAX_ADDRESSES) {
        const oldest = failures.keys().next().value;
        if (oldest === undefined) break;
        failures.delete(oldest);
      }
    },
  };
}
