import { z } from "zod";

import { safeText } from "../../src/shared/text";

import { adminDtoSchema } from "./administrators";

export const loginBodySchema = z.strictObject({
  email: safeText().trim().min(1).max(254),
  password: safeText().min(1).max(1024),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const loginResponseSchema = z.object({
  token: z.string().describe("JWT (HS256); send it back as the Authorization header"),
  admin: adminDtoSchema,
});
