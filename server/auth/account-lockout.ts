import { HttpError } from "../errors";
import type { Counters } from "../rate-limit/counters";

/** A login being checked against its account's lockout: what `end` needs to settle it. */
export interface AccountAttempt {
  key: string;
  /** When it was counted as a failure (what a success forgets with the others). */
  countedAt: Date;
  /** The account's failures in the window, this attempt counted as one. */
  count: number;
}

export interface AccountLockout {
  /**
   * Before any hashing: throws 429 ACCOUNT_LOCKED while the e-mail's account is locked, or when
   * `failures` of its logins already failed (or are being checked) in the window; else counts
   * this attempt as a failure until `end` says it succeeded.
   */
  begin(email: string): Promise<AccountAttempt>;
  /**
   * The attempt is over. A sign-in that succeeded forgets the account's failures; a right password
   * whose second factor is still to come (`passed`) is given back, the failures before it kept
   * (else a guesser who has the password would clear the count of wrong codes by signing in
   * again); the failure that reaches the limit locks the account for the lockout's length and
   * answers true (the caller tells its owner).
   */
  end(attempt: AccountAttempt, outcome: AttemptOutcome): Promise<boolean>;
}

export type AttemptOutcome = "failed" | "passed" | "succeeded";

export interface LockoutSettings {
  /** Failed logins of one account that lock it (PCI DSS 8.3.4: at most 10). */
  failures: number;
  /** How long the failures count, and how long the lock then holds (at least 30 minutes). */
  minutes: number;
}

export const ACCOUNT_LOCKED = "ACCOUNT_LOCKED";

const locked = (retryAfterMs: number) => {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return new HttpError(
    429,
    `Too many failed logins for this account: it is locked, retry in ${minutes} minutes`,
    ACCOUNT_LOCKED,
    { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) },
  );
};

/**
 * Failed logins per account (the e-mail tried, whether or not an administrator has it: the answer
 * says nothing of which e-mails exist), on top of the limits per address: thousands of guesses
 * from many addresses still stop at `failures`. The failures are a sliding log and the lock a
 * window of its own, both in the database, so they hold across every server instance, and the
 * lock lasts its full length from the failure that set it, however slowly the failures came.
 */
export function createAccountLockout(
  settings: LockoutSettings,
  counters: Counters,
): AccountLockout {
  const windowMs = settings.minutes * 60_000;
  const lockKey = (email: string) => `login-locked|${email}`;
  const failuresKey = (email: string) => `login-account|${email}`;
  return {
    async begin(email) {
      const lockedMs = await counters.remainingMs(lockKey(email));
      if (lockedMs > 0) throw locked(lockedMs);
      const key = failuresKey(email);
      const failure = await counters.sliding.take(key, settings.failures, windowMs);
      if (!failure.taken) throw locked(failure.retryAfterMs);
      return { key: email, countedAt: failure.at, count: failure.count };
    },
    async end(attempt, outcome) {
      if (outcome === "succeeded") {
        await counters.sliding.clear(failuresKey(attempt.key));
        return false;
      }
      if (outcome === "passed") {
        await counters.sliding.giveBack(failuresKey(attempt.key), attempt.countedAt);
        return false;
      }
      if (attempt.count < settings.failures) return false;
      const lock = await counters.hit(lockKey(attempt.key), windowMs);
      // The first failure to reach the limit sets the lock; others in flight find it set.
      return lock.hits === 1;
    },
  };
}
