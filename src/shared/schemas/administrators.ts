import { z } from "zod";

import { aggregationListSchema } from "../kit/list";
import { safeText } from "../text";

import { isPermissionCode, PERMISSION_CODES } from "../permissions";
import { administrators } from "../modules/administrators";
import { ADMIN_STATUSES } from "../domain";
import { emailSchema, idSchema, nameSchema } from "./common";

/** An administrator as the API shows it; never the password hash: the Admin module's record. */
export const adminDtoSchema = administrators.item;

export type AdminDto = z.output<typeof adminDtoSchema>;
export type AdminStatus = AdminDto["status"];
export type AdminLanguage = NonNullable<AdminDto["language"]>;

export const permissionCodesSchema = z
  .array(
    z
      .number()
      .int()
      .refine(isPermissionCode, {
        message: `Unknown permission code (allowed: ${PERMISSION_CODES.join(", ")})`,
      })
      // The known codes, stated in the OpenAPI document (the refinement above is the check).
      .meta({ enum: [...PERMISSION_CODES] }),
  )
  .max(PERMISSION_CODES.length * 2)
  .describe("Permission codes; duplicates are ignored");

/**
 * Checked against the password policy by the route (400 WEAK_PASSWORD lists the broken rules,
 * its length among them): the policy is the one definition of a new password's limits.
 */
export const newPasswordSchema = safeText();

export const createAdministratorBodySchema = z.strictObject({
  name: nameSchema,
  email: emailSchema,
  password: newPasswordSchema,
  permissions: permissionCodesSchema,
});
export type CreateAdministratorBody = z.infer<typeof createAdministratorBodySchema>;

export const updateAdministratorBodySchema = z.strictObject({
  name: nameSchema.optional(),
  email: emailSchema.optional(),
  permissions: permissionCodesSchema.optional(),
  status: z.enum(ADMIN_STATUSES).optional(),
});
export type UpdateAdministratorBody = z.infer<typeof updateAdministratorBodySchema>;

export const administratorListSchema = aggregationListSchema("administrators", adminDtoSchema);
export type AdministratorList = z.output<typeof administratorListSchema>;

export const checkEmailAvailableBodySchema = z.strictObject({
  email: emailSchema,
  exclude_id: idSchema.optional().describe("An administrator being edited"),
});

export const checkEmailAvailableResponseSchema = z.object({ available: z.boolean() });

export const changeAdminPermissionBodySchema = z.strictObject({
  admin_id: idSchema,
  permission_codes: permissionCodesSchema,
});
