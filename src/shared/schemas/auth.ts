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

/** The second factors an administrator can prove who they are with. */
export const SECOND_FACTOR_METHODS = ["totp", "recovery-code"] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];
/** What a step-up accepts: a second factor, or the password from an administrator who has none. */
export const STEP_UP_METHODS = [...SECOND_FACTOR_METHODS, "password"] as const;
export type StepUpMethod = (typeof STEP_UP_METHODS)[number];

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

export const secondFactorBodySchema = z.strictObject({
  ticket: ticketSchema,
  method: z.enum(SECOND_FACTOR_METHODS),
  code: typedCode,
});
export type SecondFactorBody = z.infer<typeof secondFactorBodySchema>;

export const stepUpBodySchema = z.strictObject({
  method: z.enum(STEP_UP_METHODS),
  code: safeText().min(1).max(PASSWORD_MAX_LENGTH),
});
export type StepUpBody = z.infer<typeof stepUpBodySchema>;

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

export const factorsSchema = z.object({
  totpSince: z.iso.datetime().nullable().describe("When the authenticator app was confirmed"),
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
