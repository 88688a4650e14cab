/**
 * Passkeys (WebAuthn, issue 33): each use is a challenge from the server, the browser's ceremony
 * with the authenticator (`@simplewebauthn/browser`), and its answer posted back. A ceremony the
 * administrator cancels or lets time out is a `PasskeyCeremonyError`, said in words of its own;
 * whatever the server refuses is an ApiError like any other answer.
 */
import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";

import type {
  PasskeyAdded,
  PasskeyAssertion,
  PasskeyAttestation,
  PasskeyOptions,
  SignedIn,
} from "../shared/schemas/auth";
import { translateApiError, type Translate } from "./errors";
import { http } from "./http";
import { STEP_UP_API_PATH } from "./step-up";

export const PASSKEY_CHALLENGE_API_PATH = "/api/auth/passkey/challenge";
export const PASSKEY_LOGIN_API_PATH = "/api/auth/login/passkey";
export const STEP_UP_CHALLENGE_API_PATH = "/api/auth/step-up/challenge";
export const PASSKEYS_API_PATH = "/api/account/passkeys";
export const PASSKEY_REGISTRATION_CHALLENGE_API_PATH = "/api/account/passkeys/challenge";

/**
 * Why the browser's part of a ceremony failed: `cancelled` (the administrator closed the prompt,
 * or it timed out: browsers do not tell the two apart), `exists` (this authenticator already holds
 * a passkey of the account), `unsupported` (no WebAuthn here), `failed` (anything else).
 */
export type PasskeyCeremonyFailure = "cancelled" | "exists" | "unsupported" | "failed";

export class PasskeyCeremonyError extends Error {
  readonly reason: PasskeyCeremonyFailure;

  constructor(reason: PasskeyCeremonyFailure, cause: unknown) {
    super(`Passkey ceremony ${reason}`, { cause });
    this.name = "PasskeyCeremonyError";
    this.reason = reason;
  }
}

export function isPasskeyCeremonyError(value: unknown): value is PasskeyCeremonyError {
  return value instanceof PasskeyCeremonyError;
}

/** Whether this browser can use a passkey at all (the console offers none otherwise). */
export function passkeysSupported(): boolean {
  return browserSupportsWebAuthn();
}

/** The library's error (a WebAuthnError or DOMException, named as the spec names them) sorted. */
function ceremonyFailure(error: unknown): PasskeyCeremonyFailure {
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  if (name === "NotAllowedError" || name === "AbortError" || code === "ERROR_CEREMONY_ABORTED") {
    return "cancelled";
  }
  if (code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED" || name === "InvalidStateError") {
    return "exists";
  }
  if (!browserSupportsWebAuthn()) return "unsupported";
  return "failed";
}

async function ceremony<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new PasskeyCeremonyError(ceremonyFailure(error), error);
  }
}

/** The authenticator's answer to a sign-in or step-up challenge. */
export function assertPasskey(options: PasskeyOptions): Promise<PasskeyAssertion> {
  return ceremony(async () => {
    const answer = await startAuthentication({
      optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
    });
    return answer as PasskeyAssertion;
  });
}

/** A new passkey made by the authenticator for the challenge. */
export function createPasskey(options: PasskeyOptions): Promise<PasskeyAttestation> {
  return ceremony(async () => {
    const answer = await startRegistration({
      optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
    });
    return answer as PasskeyAttestation;
  });
}

/**
 * A passkey's answer for a sign-in: with the ticket of the password step (its second factor),
 * or without (a passkey alone, any of this site's the device holds).
 */
export async function signInAssertion(ticket?: string): Promise<PasskeyAssertion> {
  const body = ticket === undefined ? {} : { ticket };
  const { data } = await http.post<PasskeyOptions>(PASSKEY_CHALLENGE_API_PATH, body);
  return assertPasskey(data);
}

/** Signs in with a passkey alone: the server's answer is the session, as after a password. */
export async function signInWithPasskey(): Promise<SignedIn> {
  const credential = await signInAssertion();
  const { data } = await http.post<SignedIn>(PASSKEY_LOGIN_API_PATH, { credential });
  return data;
}

/** Proves who the administrator is again (step-up) with a passkey of theirs. */
export async function stepUpWithPasskey(): Promise<void> {
  const { data } = await http.post<PasskeyOptions>(STEP_UP_CHALLENGE_API_PATH);
  const credential = await assertPasskey(data);
  await http.post(STEP_UP_API_PATH, { method: "passkey", credential });
}

/**
 * Adds a passkey named `name` to the administrator's account. The challenge needs a recent proof
 * (the http client asks for one); the answer holds recovery codes when it is the first factor.
 */
export async function registerPasskey(name: string): Promise<PasskeyAdded> {
  const { data: options } = await http.post<PasskeyOptions>(
    PASSKEY_REGISTRATION_CHALLENGE_API_PATH,
  );
  const credential = await createPasskey(options);
  const { data } = await http.post<PasskeyAdded>(PASSKEYS_API_PATH, { name, credential });
  return data;
}

/** Removes one of the administrator's passkeys. */
export async function removePasskey(id: number): Promise<void> {
  await http.delete(`${PASSKEYS_API_PATH}/${id}`);
}

/** A failed passkey use as a sentence: the ceremony's reason, else the server's refusal. */
export function describePasskeyFailure(error: unknown, t: Translate): string {
  if (isPasskeyCeremonyError(error)) return t(`errors:passkey.${error.reason}`);
  return translateApiError(error, t);
}
