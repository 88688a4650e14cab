import { PERMISSION } from "../../../src/shared/permissions";
import { currentAdmin } from "../../auth/access";
import {
  adminDtoSchema,
  type AdminDto,
  changeAdminPermissionBodySchema,
  checkEmailAvailableBodySchema,
  checkEmailAvailableResponseSchema,
} from "../../../src/shared/schemas/administrators";
import {
  errorBodySchema,
  errorResponses,
  idParamsSchema,
} from "../../../src/shared/schemas/common";
import { resetPasswordResponseSchema } from "../../../src/shared/schemas/user-mgmt";
import { sendResetLink } from "../../mail/password-reset-email";
import { issueAdministratorPasswordReset } from "../../services/admin-password-reset";
import type { ModuleEndpoints } from "../../kit/bind";
import { changeRecord } from "../../kit/change";
import { isEmailAvailable, updateAdministrator } from "./rules";

const access = (thing: string) => ({ permission: PERMISSION.admin, thing });

/**
 * The Admin (8) module's routes beside the kit's list, record and forms: the permission editor's
 * call, the e-mail check and the password reset link. A route without an access of its own
 * needs Admin (8) as "Administrator", the module's; every one is tagged "administrators".
 */
export const administratorEndpoints: ModuleEndpoints = async (
  app,
  { db, config, mailer, bound },
) => {
  app.post(
    "/api/administrators/:id/password-reset",
    {
      config: { access: access("Reset Administrator Password") },
      schema: {
        summary: "E-mail an administrator a one-time link to set a new password (valid 1 hour)",
        description:
          "The link, `${PUBLIC_URL}/login/reset-password?token=…`, goes to the administrator's own " +
          "e-mail; their password and sessions are unchanged until it is used, and an earlier " +
          "unused link stops working. Needs every permission code the administrator holds (403 " +
          "PERMISSION_NOT_HELD, SUPER_ADMIN_ONLY); 502 MAIL_FAILED when the mail could not be sent.",
        params: idParamsSchema,
        response: {
          202: resetPasswordResponseSchema,
          ...errorResponses(400, 401, 403, 404),
          502: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const reset = await issueAdministratorPasswordReset(
        db,
        currentAdmin(request),
        request.params.id,
      );
      const sent = await sendResetLink(mailer, config.publicUrl, request.log, {
        audience: "staff",
        to: reset.administrator.email,
        name: reset.administrator.name,
        token: reset.token,
        expiresAt: reset.expiresAt,
      });
      return reply.status(202).send(sent);
    },
  );

  app.post(
    "/user-mgmt/check-email-available",
    {
      config: { access: access("Check Email Available") },
      schema: {
        summary: "Whether an e-mail is free for an administrator (case-insensitive)",
        body: checkEmailAvailableBodySchema,
        response: { 200: checkEmailAvailableResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({
      available: await isEmailAvailable(db, request.body.email, request.body.exclude_id),
    }),
  );

  app.post(
    "/user-mgmt/change-admin-permission",
    {
      config: { access: access("Change Admin Permission") },
      schema: {
        summary: "Replace an administrator's permission codes",
        body: changeAdminPermissionBodySchema,
        response: { 200: adminDtoSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const actor = currentAdmin(request);
      const id = request.body.admin_id;
      // One change of the record as the kit's edit form makes it (lock, rules, audit), audited
      // as a permission change.
      const changed = await db.transaction((tx) =>
        changeRecord(
          tx,
          bound,
          {
            actor,
            id,
            audit: "administrator.change_permissions",
            remark: null,
            quietWhenUnchanged: true,
          },
          async () => {
            await updateAdministrator(tx, actor, id, {
              permissions: request.body.permission_codes,
            });
          },
        ),
      );
      return changed as AdminDto;
    },
  );
};
