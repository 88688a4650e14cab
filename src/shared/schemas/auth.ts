import { z } from "zod";

import { PASSWORD_MAX_LENGTH } from "../password-policy";
import { safeText } from "../text";

import { adminDtoSchema } from "./administrators";

export const loginBodySchema = z.strictObject({
  email: safeText().trim().min(1).max(254),
  // No password the policy accepts is longer (src/shared/password-policy.ts).
  password: safeText().min(1).max(PASSWORD_MAX_LENGTH),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

/** The second factors an administrator can prove who they are with, the strongest first. */
export const SECOND_FACTOR_METHODS = ["passkey", "totp", "recovery-code"] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];
/** The second factors proved with a typed code. */
export const CODE_METHODS = ["totp", "recovery-code"] as const;
export type CodeMethod = (typeof CODE_METHODS)[number];
/** What a step-up accepts: a second factor, or the password from an administrator who has none. */
export const STEP_UP_METHODS = [...SECOND_FACTOR_METHODS, "password"] as const;
export type StepUpMethod = (typeof STEP_UP_METHODS)[number];

/** Base64url text (WebAuthn's binary fields in JSON) of at most `max` characters. */
const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, "Base64url text");

/**
 * What the browser's authenticator answered to a sign-in challenge (WebAuthn's
 * AuthenticationResponseJSON, as `@simplewebauthn/browser` gives it). Unknown fields are dropped;
 * nothing of it is stored but the signature counter.
 */
/** What every answer of an authenticator holds besides its `response`. */
const passkeyCredential = {
  id: base64url(1366).min(1),
  rawId: base64url(1366).min(1),
  type: z.literal("public-key"),
  clientExtensionResults: z.record(z.string().max(64), z.unknown()),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
};

export const passkeyAssertionSchema = z
  .object({
    ...passkeyCredential,
    response: z.object({
      clientDataJSON: base64url(8192).min(1),
      authenticatorData: base64url(8192).min(1),
      signature: base64url(2048).min(1),
      userHandle: base64url(1024).optional(),
    }),
  })
  .meta({ id: "PasskeyAssertion" });
export type PasskeyAssertion = z.infer<typeof passkeyAssertionSchema>;

/** WebAuthn's authenticator transports (how the browser reaches a passkey). */
const TRANSPORTS = ["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"] as const;

/** What the browser's authenticator answered to a registration (RegistrationResponseJSON). */
export const passkeyAttestationSchema = z
  .object({
    ...passkeyCredential,
    response: z.object({
      clientDataJSON: base64url(8192).min(1),
      attestationObject: base64url(65536).min(1),
      authenticatorData: base64url(65536).optional(),
      // Unknown transports (a newer browser's) are dropped rather than refused.
      transports: z
        .array(z.string().max(32))
        .max(16)
        .optional()
        .transform((list) =>
          list?.filter((t): t is (typeof TRANSPORTS)[number] =>
            (TRANSPORTS as readonly string[]).includes(t),
          ),
        ),
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: base64url(8192).optional(),
    }),
  })
  .meta({ id: "PasskeyAttestation" });
export type PasskeyAttestation = z.input<typeof passkeyAttestationSchema>;

/**
 * The options the browser hands to `navigator.credentials.get` / `.create` (WebAuthn's
 * PublicKeyCredentialRequestOptionsJSON / CreationOptionsJSON): a fresh challenge, single-use,
 * valid for 5 minutes.
 */
export const passkeyOptionsSchema = z
  .object({ challenge: z.string() })
  .catchall(z.unknown())
  .meta({ id: "PasskeyOptions" });
export type PasskeyOptions = z.infer<typeof passkeyOptionsSchema>;

/** A sign-in's ticket between the password and the second factor (32 random bytes, base64url). */
const ticketSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/, "A sign-in ticket is 43 base64url characters");

export const signedInSchema = z.object({
  token: z.string().describe("JWT (HS256); send it back as the Authorization header"),
  admin: adminDtoSchema,
  enrolmentRequired: z
    .boolean()
    .optional()
    .describe(
      "A second factor is required of this administrator and not set up: the session serves " +
        "only enrolment (403 SECOND_FACTOR_REQUIRED for anything else) until one is confirmed",
    ),
});
export type SignedIn = z.infer<typeof signedInSchema>;

export const loginResponseSchema = z
  .union([
    signedInSchema,
    z.object({
      secondFactor: z.object({
        ticket: ticketSchema.describe("Send it with the code to /api/auth/login/second-factor"),
        methods: z.array(z.enum(SECOND_FACTOR_METHODS)),
      }),
    }),
  ])
  .meta({ id: "LoginResponse" });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** A code as typed: checked for its form by the server, which says what is wrong with it. */
const typedCode = safeText().min(1).max(64);

/** A second factor as sent: a typed code, or a passkey's answer to the challenge it was given. */
const codeProof = { method: z.enum(CODE_METHODS), code: typedCode };
const passkeyProof = { method: z.literal("passkey"), credential: passkeyAssertionSchema };

export const secondFactorBodySchema = z.discriminatedUnion("method", [
  z.strictObject({ ticket: ticketSchema, ...codeProof }),
  z.strictObject({ ticket: ticketSchema, ...passkeyProof }),
]);
export type SecondFactorBody = z.infer<typeof secondFactorBodySchema>;

export const stepUpBodySchema = z.discriminatedUnion("method", [
  z.strictObject({
    method: z.enum([...CODE_METHODS, "password"]),
    code: safeText().min(1).max(PASSWORD_MAX_LENGTH),
  }),
  z.strictObject(passkeyProof),
]);
export type StepUpBody = z.infer<typeof stepUpBodySchema>;

/**
 * A challenge for a passkey: with the ticket of a sign-in whose password was right, for its
 * second factor (the administrator's passkeys are named); without, for a sign-in with a passkey
 * alone (any passkey of this site the device holds, with its PIN or biometrics).
 */
export const passkeyChallengeBodySchema = z.strictObject({ ticket: ticketSchema.optional() });
export const passkeySignInBodySchema = z.strictObject({ credential: passkeyAssertionSchema });
export type PasskeySignInBody = z.infer<typeof passkeySignInBodySchema>;

/** The signed-in session as the console keeps time by it. */
export const sessionStateSchema = z.object({
  idleMinutes: z.number().int().describe("The session ends after this long without use"),
  stepUpMinutes: z.number().int().describe("How recent a proof a sensitive action needs"),
  expiresAt: z.iso.datetime().describe("The absolute end of the session"),
  verifiedAt: z.iso.datetime().describe("When its holder last proved who they are"),
  stepUpMethods: z.array(z.enum(STEP_UP_METHODS)),
  enrolmentRequired: z
    .boolean()
    .describe("The session serves only enrolment until a second factor is confirmed"),
});
export type SessionState = z.infer<typeof sessionStateSchema>;

export const sessionSchema = z.object({
  id: z.string().describe("The session's id (its token's jti)"),
  address: z.string(),
  device: z.string().describe("The browser's user agent"),
  createdAt: z.iso.datetime(),
  lastSeenAt: z.iso.datetime(),
  current: z.boolean().describe("The session this request was made in"),
});
export type SessionDto = z.infer<typeof sessionSchema>;
export const sessionListSchema = z.object({ data: z.array(sessionSchema) });
// Declared with the administrators module, whose "end all sessions" answers it too.
export { endedSessionsSchema } from "../modules/administrators";

export const passkeySchema = z.object({
  id: z.number().int(),
  name: z.string().describe("The name its owner gave it"),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  synced: z
    .boolean()
    .describe("Backed up by its provider (a synced passkey), not bound to one device"),
});
export type PasskeyDto = z.infer<typeof passkeySchema>;

export const factorsSchema = z.object({
  totpSince: z.iso.datetime().nullable().describe("When the authenticator app was confirmed"),
  passkeys: z.array(passkeySchema),
  recoveryCodesLeft: z.number().int(),
  methods: z.array(z.enum(SECOND_FACTOR_METHODS)),
});
export type FactorsDto = z.infer<typeof factorsSchema>;

export const totpEnrolmentSchema = z.object({
  secret: z.string().describe("The secret in base32, for typing into an app"),
  uri: z.string().describe("The otpauth:// address the QR code holds"),
  qrCode: z.string().describe("The QR code as an SVG data URL"),
});
export type TotpEnrolment = z.infer<typeof totpEnrolmentSchema>;

export const totpConfirmBodySchema = z.strictObject({ code: typedCode });
export const recoveryCodesSchema = z.object({
  recoveryCodes: z.array(z.string()).describe("Shown once: keep them somewhere safe"),
});
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

export const passkeyRegistrationBodySchema = z.strictObject({
  name: safeText().trim().min(1).max(60).describe('What its owner calls it, e.g. "YubiKey"'),
  credential: passkeyAttestationSchema,
});
export type PasskeyRegistrationBody = z.input<typeof passkeyRegistrationBodySchema>;
export const passkeyAddedSchema = z.object({
  passkey: passkeySchema,
  recoveryCodes: z
    .array(z.string())
    .optional()
    .describe("With the first second factor: ten recovery codes, shown this once"),
});
export type PasskeyAdded = z.infer<typeof passkeyAddedSchema>;
