import { z } from "zod";

import { aggregationListSchema } from "../kit/list";

import { administrators } from "../modules/administrators";
import { emailSchema, idSchema } from "./common";

/** An administrator as the API shows it; never the password hash: the Admin module's record. */
export const adminDtoSchema = administrators.item;

export type AdminDto = z.output<typeof adminDtoSchema>;
export type AdminStatus = AdminDto["status"];
export type AdminLanguage = NonNullable<AdminDto["language"]>;

// The forms' bodies live apart, where the module's declaration can import them.
export {
  changeAdminPermissionBodySchema,
  createAdministratorBodySchema,
  newPasswordSchema,
  permissionCodesSchema,
  updateAdministratorBodySchema,
  type CreateAdministratorBody,
  type UpdateAdministratorBody,
} from "./administrator-forms";

export const administratorListSchema = aggregationListSchema("administrators", adminDtoSchema);
export type AdministratorList = z.output<typeof administratorListSchema>;

export const checkEmailAvailableBodySchema = z.strictObject({
  email: emailSchema,
  exclude_id: idSchema.optional().describe("An administrator being edited"),
});

export const checkEmailAvailableResponseSchema = z.object({ available: z.boolean() });
