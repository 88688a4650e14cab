/**
 * E-mailed one-time password reset links, of wallet users (the wallet app's reset page) and of
 * administrators (the console's): the token as issued and the bodies that spend it.
 */
import { z } from "zod";

import { newPasswordSchema } from "./administrators";
import { isoDateTime } from "./common";

/** A reset link's token as issued: 32 random bytes in base64url, 43 characters. */
export const resetTokenSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/, "Not a reset link's token")
  .describe("The `token` of an e-mailed reset link (`…/reset-password?token=…`)");

export const resetLinkBodySchema = z.strictObject({ token: resetTokenSchema });

export const resetPasswordBodySchema = z.strictObject({
  token: resetTokenSchema,
  password: newPasswordSchema,
});
export type ResetPasswordBody = z.infer<typeof resetPasswordBodySchema>;

/** Whose link an administrator's reset link is and until when it works: the page's greeting. */
export const staffResetLinkSchema = z
  .object({ email: z.string(), name: z.string(), expiresAt: isoDateTime })
  .meta({ id: "StaffResetLink" });
export type StaffResetLink = z.output<typeof staffResetLinkSchema>;
