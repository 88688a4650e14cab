import { HttpError } from "../errors";
import type { Counters } from "../rate-limit/counters";

/** How long a failed login counts against its address: no span this long holds over `limit`. */
const WINDOW_MS = 60_000;
/** Logins of one address checked at the same time; more wait for none of the hashing slots. */
const CONCURRENT_PER_ADDRESS = 2;

/** A login being checked: what `end` needs to settle it. */
export interface LoginAttempt {
  address: string;
  /** When it was counted as a failure (what a success gives back). */
  countedAt: Date;
}

export interface LoginGuard {
  /**
   * Before any hashing: throws 429 RATE_LIMITED when `address` failed `limit` times in the last
   * minute, or already has logins being checked in this process; else counts this attempt as a
   * failure until `end` says it succeeded.
   */
  begin(address: string): Promise<LoginAttempt>;
  /** The attempt is over: a success is taken back, a failure keeps counting. */
  end(attempt: LoginAttempt, succeeded: boolean): Promise<void>;
}

const tooMany = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, message, "RATE_LIMITED", { retryAfterSeconds });

const keyOf = (address: string) => `login-failures|${address}`;

/**
 * Failed logins per client address across every e-mail it tries (password spraying): the per
 * address-and-e-mail limit lets one address try a different e-mail each time, and each attempt
 * costs a full password hash. An attempt counts as a failure from its start until it succeeds,
 * so a spray cannot race past the limit. The minute slides (a fixed one let twice the limit
 * through across its end), and its failures are counted in the database, so the limit holds
 * across every server instance; the logins under way are counted per process, because what they
 * protect, the process's hashing slots, is per process too.
 */
export function createLoginGuard(limit: number, counters: Counters): LoginGuard {
  const underWay = new Map<string, number>();
  const settle = (address: string) => {
    const busy = (underWay.get(address) ?? 1) - 1;
    if (busy > 0) underWay.set(address, busy);
    else underWay.delete(address);
  };

  return {
    async begin(address) {
      const busy = underWay.get(address) ?? 0;
      if (busy >= CONCURRENT_PER_ADDRESS) {
        throw tooMany("Too many logins at once from this address, retry in 1 second", 1);
      }
      underWay.set(address, busy + 1);
      try {
        const failure = await counters.sliding.take(keyOf(address), limit, WINDOW_MS);
        if (!failure.taken) {
          const retry = Math.max(1, Math.ceil(failure.retryAfterMs / 1000));
          throw tooMany(
            `Too many failed logins from this address, retry in ${retry} seconds`,
            retry,
          );
        }
        return { address, countedAt: failure.at };
      } catch (error) {
        settle(address);
        throw error;
      }
    },
    async end(attempt, succeeded) {
      settle(attempt.address);
      if (succeeded) await counters.sliding.giveBack(keyOf(attempt.address), attempt.countedAt);
    },
  };
}
