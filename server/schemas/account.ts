import { z } from "zod";

import { safeText } from "../../src/shared/text";

import { ADMIN_LANGUAGES } from "../db/schema";
import { newPasswordSchema } from "./administrators";
import { nameSchema } from "./common";

export const updateAccountBodySchema = z.strictObject({
  name: nameSchema.optional(),
  language: z.enum(ADMIN_LANGUAGES).nullable().optional(),
});
export type UpdateAccountBody = z.infer<typeof updateAccountBodySchema>;

export const changePasswordBodySchema = z.strictObject({
  currentPassword: safeText().min(1).max(1024),
  newPassword: newPasswordSchema,
});
