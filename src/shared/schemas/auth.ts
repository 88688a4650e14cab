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

export const loginResponseSchema = z.object({
  token: z.string().describe("JWT (HS256); send it back as the Authorization header"),
  admin: adminDtoSchema,
});
