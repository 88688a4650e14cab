/**
 * The bodies of the administrators' create and edit forms, declared by the module
 * (src/shared/modules/administrators.ts) and re-exported by ./administrators.ts. Apart from
 * ./administrators.ts, whose record schema is the module's, so the declaration can import them.
 */
import { z } from "zod";

import { ADMIN_STATUSES } from "../domain";
import { isPermissionCode, PERMISSION_CODES } from "../permissions";
import { safeText } from "../text";
import { emailSchema, idSchema, nameSchema } from "./common";

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

/**
 * Name and e-mail only: status and permissions move through the module's declared actions, so
 * each change of power has one route (and its own audit name); either key here is a 400.
 */
export const updateAdministratorBodySchema = z
  .strictObject({
    name: nameSchema.optional(),
    email: emailSchema.optional(),
  })
  .describe(
    "Name and e-mail only: status and permissions change through PATCH …/{id}/status and " +
      "PATCH …/{id}/permissions (either key here is a 400 VALIDATION_ERROR). Needs every " +
      "permission code the administrator holds (403 PERMISSION_NOT_HELD; a super administrator " +
      "only by a super administrator, 403 SUPER_ADMIN_ONLY). Nobody sets another's password: " +
      "POST …/password-reset e-mails them a link.",
  );
export type UpdateAdministratorBody = z.infer<typeof updateAdministratorBodySchema>;

/** The administrators module's status action: enable (active), disable or ban an administrator. */
export const adminStatusBodySchema = z
  .strictObject({ status: z.enum(ADMIN_STATUSES) })
  .meta({ id: "AdminStatusBody" });

/** The administrators module's permission action: the codes the administrator holds after it. */
export const adminPermissionsBodySchema = z
  .strictObject({ permissions: permissionCodesSchema })
  .meta({ id: "AdminPermissionsBody" });

/** The seed's permission call: the administrator by id, the codes under their snake_case name. */
export const changeAdminPermissionBodySchema = z.strictObject({
  admin_id: idSchema,
  permission_codes: permissionCodesSchema,
});
