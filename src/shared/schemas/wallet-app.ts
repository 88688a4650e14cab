/**
 * The wallet app's own calls on the reference server: a user sets a password through the link the
 * back office e-mailed (Reset Password on the user's page), then signs in with it.
 */
import { z } from "zod";

import { APPROVAL_STATUSES, USER_ROLES } from "../domain";
import { PASSWORD_MAX_LENGTH } from "../password-policy";
import { safeText } from "../text";
import { isoDateTime } from "./common";
import { accountNumberSchema } from "./common";

/** Whose link it is and until when it works: what the reset page greets the user with. */
export const resetLinkSchema = z
  .object({ accountNumber: z.string(), name: z.string(), expiresAt: isoDateTime })
  .meta({ id: "ResetLink" });
export type ResetLink = z.output<typeof resetLinkSchema>;

export const walletSignInBodySchema = z.strictObject({
  accountNumber: accountNumberSchema,
  // No password the policy accepts is longer (src/shared/password-policy.ts).
  password: safeText().min(1).max(PASSWORD_MAX_LENGTH),
});
export type WalletSignInBody = z.infer<typeof walletSignInBodySchema>;

/** The signed-in user as the wallet app shows them. */
export const walletProfileSchema = z
  .object({
    accountNumber: z.string(),
    name: z.string(),
    role: z.enum(USER_ROLES),
    approvalStatus: z.enum(APPROVAL_STATUSES),
    balanceSen: z.number().int(),
  })
  .meta({ id: "WalletProfile" });
export type WalletProfile = z.output<typeof walletProfileSchema>;

export const walletSignInResponseSchema = z.object({
  token: z.string().describe("JWT for the wallet app's calls; send it as `Bearer <token>`"),
  profile: walletProfileSchema,
});
