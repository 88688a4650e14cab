/**
 * Passkeys of administrators (WebAuthn, through `@simplewebauthn/server`): registering one, and
 * proving who one is with it, as a second factor, for a step-up, or alone at sign-in.
 *
 * Every ceremony answers a challenge the server made for it: 32 random bytes, for one purpose
 * and (but for a sign-in with a passkey alone) one administrator, valid 5 minutes, and deleted by
 * the answer that presents it, so an answer cannot be replayed and a challenge made for a
 * step-up cannot sign anyone in. A passkey's signature counter only moves forward: an answer
 * with a counter at or below the kept one (a cloned authenticator, or two uses racing) fails.
 */
import { randomBytes } from "node:crypto";

import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";

import type {
  PasskeyAssertion,
  PasskeyAttestation,
  PasskeyOptions,
} from "../../src/shared/schemas/auth";
import type { DbOrTx } from "../db";
import type { PASSKEY_CHALLENGE_PURPOSES } from "../db/schema";
import { adminPasskeys, passkeyChallenges } from "../db/schema";
import { HttpError } from "../errors";

export const PASSKEY_CHALLENGE_MINUTES = 5;
const RP_NAME = "UCSI Wallet console";

export type PasskeyPurpose = (typeof PASSKEY_CHALLENGE_PURPOSES)[number];

/** WEBAUTHN_RP_ID and WEBAUTHN_ORIGINS (server/config.ts). */
export interface PasskeySettings {
  rpId: string;
  origins: string[];
}

/** One answer for every passkey that is not accepted: nothing says why. */
export const passkeyFailed = () =>
  new HttpError(400, "The passkey was not accepted: try again", "PASSKEY_FAILED");

async function newChallenge(
  db: DbOrTx,
  purpose: PasskeyPurpose,
  adminId: number | null,
): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = new Uint8Array(randomBytes(32));
  // Challenges nobody answered are tidied away by the next one made.
  await db.delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, sql`now()`));
  await db.insert(passkeyChallenges).values({
    challenge: Buffer.from(bytes).toString("base64url"),
    purpose,
    adminId,
    expiresAt: new Date(Date.now() + PASSKEY_CHALLENGE_MINUTES * 60_000),
  });
  return bytes;
}

/**
 * The challenge an answer's `clientDataJSON` names, taken (deleted) when it is live and was made
 * for `purpose` and `adminId`; null for any other.
 */
async function takeChallenge(
  db: DbOrTx,
  clientDataJSON: string,
  purpose: PasskeyPurpose,
  adminId: number | null,
): Promise<string | null> {
  let challenge: unknown;
  try {
    challenge = (
      JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8")) as {
        challenge?: unknown;
      }
    ).challenge;
  } catch {
    return null;
  }
  if (typeof challenge !== "string" || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) return null;
  const taken = await db
    .delete(passkeyChallenges)
    .where(
      and(
        eq(passkeyChallenges.challenge, challenge),
        eq(passkeyChallenges.purpose, purpose),
        gt(passkeyChallenges.expiresAt, sql`now()`),
        adminId === null
          ? isNull(passkeyChallenges.adminId)
          : eq(passkeyChallenges.adminId, adminId),
      ),
    )
    .returning({ challenge: passkeyChallenges.challenge });
  return taken.length > 0 ? challenge : null;
}

/** `adminId`'s passkeys as a ceremony's options name them: the id and how to reach it. */
async function credentialsOf(db: DbOrTx, adminId: number) {
  const rows = await db
    .select({ id: adminPasskeys.credentialId, transports: adminPasskeys.transports })
    .from(adminPasskeys)
    .where(eq(adminPasskeys.adminId, adminId));
  return rows.map((row) => ({ id: row.id, transports: transportsOf(row.transports) }));
}

const transportsOf = (transports: string[]) => transports as AuthenticatorTransport[];

/** The options for registering a new passkey of `admin` (none of theirs registered again). */
export async function registrationOptions(
  db: DbOrTx,
  settings: PasskeySettings,
  admin: { id: number; email: string; name: string },
): Promise<PasskeyOptions> {
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: settings.rpId,
    userName: admin.email,
    userDisplayName: admin.name,
    // Stable per administrator, so registering again on one authenticator replaces its passkey.
    userID: new Uint8Array(Buffer.from(`ucsi-wallet-admin-${admin.id}`)),
    challenge: await newChallenge(db, "register", admin.id),
    timeout: PASSKEY_CHALLENGE_MINUTES * 60_000,
    attestationType: "none",
    excludeCredentials: await credentialsOf(db, admin.id),
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
  });
  return { ...options };
}

/** A registration answer checked against its challenge: the credential to keep; else 400. */
export async function verifyRegistration(
  db: DbOrTx,
  settings: PasskeySettings,
  adminId: number,
  credential: PasskeyAttestation,
) {
  const challenge = await takeChallenge(
    db,
    credential.response.clientDataJSON,
    "register",
    adminId,
  );
  if (!challenge) throw passkeyFailed();
  try {
    const result = await verifyRegistrationResponse({
      response: credential as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: settings.origins,
      expectedRPID: settings.rpId,
      requireUserVerification: false,
    });
    if (!result.verified) throw passkeyFailed();
    const { credential: made, credentialBackedUp } = result.registrationInfo;
    return {
      credentialId: made.id,
      publicKey: Buffer.from(made.publicKey),
      counter: made.counter,
      transports: made.transports ?? [],
      synced: credentialBackedUp,
    };
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw passkeyFailed();
  }
}

/**
 * The options for proving who one is with a passkey: `adminId`'s passkeys for a second factor
 * or a step-up; for a sign-in with a passkey alone (`adminId` null), any passkey of this site
 * the device holds, unlocked with its PIN or biometrics (user verification required).
 */
export async function authenticationOptions(
  db: DbOrTx,
  settings: PasskeySettings,
  purpose: Exclude<PasskeyPurpose, "register">,
  adminId: number | null,
): Promise<PasskeyOptions> {
  const allowCredentials = adminId === null ? undefined : await credentialsOf(db, adminId);
  const options = await generateAuthenticationOptions({
    rpID: settings.rpId,
    allowCredentials,
    challenge: await newChallenge(db, purpose, adminId),
    timeout: PASSKEY_CHALLENGE_MINUTES * 60_000,
    userVerification: adminId === null ? "required" : "preferred",
  });
  return { ...options };
}

/** The administrator whose passkey `credential` names; null for an unknown one. */
export async function passkeyHolder(
  db: DbOrTx,
  credential: PasskeyAssertion,
): Promise<number | null> {
  const [row] = await db
    .select({ adminId: adminPasskeys.adminId })
    .from(adminPasskeys)
    .where(eq(adminPasskeys.credentialId, credential.id));
  return row?.adminId ?? null;
}

/**
 * Checks `credential`, an answer to a challenge made for `purpose`, as a passkey of `adminId`,
 * and moves its counter on: whether it proves who they are. `challengeFor`: the administrator the
 * challenge was made for (null for a sign-in with a passkey alone).
 */
export async function provePasskey(
  db: DbOrTx,
  settings: PasskeySettings,
  purpose: Exclude<PasskeyPurpose, "register">,
  adminId: number,
  credential: PasskeyAssertion,
  challengeFor: number | null = adminId,
): Promise<boolean> {
  const challenge = await takeChallenge(
    db,
    credential.response.clientDataJSON,
    purpose,
    challengeFor,
  );
  if (!challenge) return false;
  const [row] = await db
    .select()
    .from(adminPasskeys)
    .where(and(eq(adminPasskeys.credentialId, credential.id), eq(adminPasskeys.adminId, adminId)));
  if (!row) return false;
  let info;
  try {
    const result = await verifyAuthenticationResponse({
      response: credential as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: settings.origins,
      expectedRPID: settings.rpId,
      credential: {
        id: row.credentialId,
        publicKey: new Uint8Array(row.publicKey),
        counter: row.counter,
        transports: transportsOf(row.transports),
      },
      requireUserVerification: challengeFor === null,
    });
    if (!result.verified) return false;
    info = result.authenticationInfo;
  } catch {
    return false;
  }
  // Authenticators without a counter always send 0; any other must have moved on since the kept
  // value was read (one conditional update, so two answers racing cannot both pass).
  const moved = await db
    .update(adminPasskeys)
    .set({ counter: info.newCounter, lastUsedAt: new Date(), synced: info.credentialBackedUp })
    .where(
      and(
        eq(adminPasskeys.id, row.id),
        info.newCounter === 0
          ? eq(adminPasskeys.counter, 0)
          : lt(adminPasskeys.counter, info.newCounter),
      ),
    )
    .returning({ id: adminPasskeys.id });
  return moved.length > 0;
}
