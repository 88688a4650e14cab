/**
 * Second factors in tests: an authenticator app enrolled through the API, the codes it would show,
 * and time moved for a session (its last proof, its last use) as the database keeps it.
 */
import { sql } from "drizzle-orm";
import { expect } from "vitest";

import type { App } from "../../../server/app";
import type { Db } from "../../../server/db";
import { forgetUsedSteps, freshCode } from "../../support/totp";
import { auth } from "./session";

export { codeOf, freshCode, midStep } from "../../support/totp";

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

/**
 * Forgets the authenticator-app steps `adminId` has used, on the server and in the tests' record
 * (tests/support/totp.ts), so that the next code needs no wait for a new 30 s step.
 */
export async function forgetUsedCodes(db: Db, adminId: number, secret: string) {
  await db.execute(sql`update admin_totp set last_step = null where admin_id = ${adminId}`);
  forgetUsedSteps(secret);
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
