import { currentAdmin } from "../../auth/access";
import {
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
import { isEmailAvailable } from "./rules";

/**
 * The Admin (8) module's routes beside the kit's list, record, forms and actions: the e-mail
 * check and the password reset link (it changes no administrator: it e-mails a link). A route without an access of its own
 * needs Admin (8) as "Administrator", the module's; every one is tagged "administrators".
 */
export const administratorEndpoints: ModuleEndpoints = async (app, { db, config, mailer }) => {
  app.post(
    "/api/administrators/:id/password-reset",
    {
      config: { thing: "Reset Administrator Password" },
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
      config: { thing: "Check Email Available" },
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
};
