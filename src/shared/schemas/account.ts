import { z } from "zod";

import { ADMIN_LANGUAGES } from "../domain";
import { newPasswordSchema } from "./administrators";
import { nameSchema } from "./common";

export const updateAccountBodySchema = z.strictObject({
  name: nameSchema.optional(),
  language: z.enum(ADMIN_LANGUAGES).nullable().optional(),
});
export type UpdateAccountBody = z.infer<typeof updateAccountBodySchema>;

export const changePasswordBodySchema = z.strictObject({
  currentPassword: z.string().min(1).max(1024),
  newPassword: newPasswordSchema,
});
