import { z } from "zod";

import { PASSWORD_MAX_LENGTH } from "../password-policy";
import { safeText } from "../text";

import { ADMIN_LANGUAGES, ADMIN_THEMES } from "../domain";
import { newPasswordSchema } from "./administrators";
import { nameSchema } from "./common";

export const updateAccountBodySchema = z.strictObject({
  name: nameSchema.optional(),
  language: z.enum(ADMIN_LANGUAGES).nullable().optional(),
  theme: z.enum(ADMIN_THEMES).optional(),
});
export type UpdateAccountBody = z.infer<typeof updateAccountBodySchema>;

export const changePasswordBodySchema = z.strictObject({
  // No password the policy accepts is longer (src/shared/password-policy.ts).
  currentPassword: safeText().min(1).max(PASSWORD_MAX_LENGTH),
  newPassword: newPasswordSchema,
});
