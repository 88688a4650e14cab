/**
 * Second factors in tests: an authenticator app enrolled through the API, the codes it would show,
 * and time moved for a session (its last proof, its last use) as the database keeps it.
 */
import { sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { expect } from "vitest";

import type { App } from "../../../server/app";
import type { Db } from "../../../server/db";
import { auth } from "./session";

const STEP_MS = 30_000;

/** The code the app shows `steps` steps from now (−1: the previous one, 1: the next). */
export function codeOf(secret: string, steps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + steps * STEP_MS,
  });
}

/** The last step whose code a test sent, per secret (the server never accepts a step twice). */
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

/**
 * Waits until the current 30 s step has at least `seconds` left, so that "this step", "the
 * previous" and "the next" stay what they were while a test uses them.
 */
export async function midStep(seconds = 12): Promise<void> {
  const left = STEP_MS - (Date.now() % STEP_MS);
  if (left < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 200));
}

/** Signs in with the password and then a fresh code of `secret`: the token. */
export async function signInWithTotp(
  app: App,
  credentials: { email: string; password: string },
  secret: string,
): Promise<string> {
  const first = await app.inject({
    method: "POST",
    url: "/v1/api/auth/login",
    payload: credentials,
  });
  expect(first.statusCode, first.body).toBe(200);
  const { ticket } = first.json<{ secondFactor: { ticket: string } }>().secondFactor;
  const second = await app.inject({
    method: "POST",
    url: "/v1/api/auth/login/second-factor",
    payload: { ticket, method: "totp", code: await freshCode(secret) },
  });
  expect(second.statusCode, second.body).toBe(200);
  return second.json<{ token: string }>().token;
}

/** Enrols an authenticator app for `token`'s holder: its secret and the ten recovery codes. */
export async function enrolTotp(app: App, token: string) {
  const started = await app.inject({
    method: "POST",
    url: "/v1/api/account/factors/totp",
    headers: auth(token),
  });
  expect(started.statusCode, started.body).toBe(200);
  const { secret } = started.json<{ secret: string }>();
  const confirmed = await app.inject({
    method: "POST",
    url: "/v1/api/account/factors/totp/confirm",
    headers: auth(token),
    payload: { code: await freshCode(secret) },
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { secret, recoveryCodes: confirmed.json<{ recoveryCodes: string[] }>().recoveryCodes };
}

/** Moves the last proof of every open session of `adminId` `minutes` into the past. */
export async function ageProof(db: Db, adminId: number, minutes: number) {
  await db.execute(sql`
    update admin_sessions set verified_at = verified_at - ${minutes} * interval '1 minute'
    where admin_id = ${adminId} and ended_at is null`);
}

/** Moves the last use of every open session of `adminId` `minutes` into the past. */
export async function ageUse(db: Db, adminId: number, minutes: number) {
  await db.execute(sql`
    update admin_sessions set last_seen_at = last_seen_at - ${minutes} * interval '1 minute'
    where admin_id = ${adminId} and ended_at is null`);
}
