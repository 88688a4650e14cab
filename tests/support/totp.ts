/**
 * What an authenticator app shows, for tests of the server and browser stories alike: the code of
 * a step, and a code the server has not seen yet (it accepts each 30 s step once, and one step
 * either side of now).
 */
import { Secret, TOTP } from "otpauth";

const STEP_MS = 30_000;

/** The code the app shows `steps` steps from now (−1: the previous one, 1: the next). */
export function codeOf(secret: string, steps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + steps * STEP_MS,
  });
}

/** The last step whose code a test sent, per secret. */
const usedSteps = new Map<string, number>();

/**
 * A code the server has not seen yet: the current step's, or the next one's when the current was
 * used (both are accepted); waits for the next step when both were.
 */
export async function freshCode(secret: string): Promise<string> {
  for (;;) {
    const current = Math.floor(Date.now() / STEP_MS);
    const step = Math.max(current, (usedSteps.get(secret) ?? 0) + 1);
    if (step <= current + 1) {
      usedSteps.set(secret, step);
      return new TOTP({ secret: Secret.fromBase32(secret) }).generate({
        timestamp: step * STEP_MS,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, STEP_MS - (Date.now() % STEP_MS) + 50));
  }
}

/** Forgets the steps sent for `secret` (with the server's record of them, forgetUsedCodes). */
export function forgetUsedSteps(secret: string): void {
  usedSteps.delete(secret);
}

/**
 * Waits until the current 30 s step has at least `seconds` left, so that "this step", "the
 * previous" and "the next" stay what they were while a test uses them.
 */
export async function midStep(seconds = 12): Promise<void> {
  const left = STEP_MS - (Date.now() % STEP_MS);
  if (left < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 200));
}
