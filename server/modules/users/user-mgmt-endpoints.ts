import { currentAdmin } from "../../auth/access";
import { sendResetLink } from "../../mail/password-reset-email";
import { errorBodySchema, errorResponses } from "../../../src/shared/schemas/common";
import {
  mgmtUserPageSchema,
  resetPasswordBodySchema,
  resetPasswordResponseSchema,
  roleListQuerySchema,
  searchBuyerQuerySchema,
  searchBuyerResponseSchema,
} from "../../../src/shared/schemas/user-mgmt";
import { issuePasswordReset } from "../../services/password-reset";
import { ofRole, pageOfUsers, pendingOfRole, searchBuyers } from "./user-mgmt";
import type { ModuleEndpoints } from "../../kit/bind";

const tags = ["user-mgmt"];

/**
 * The /user-mgmt calls of the User (0) module; snake_case, as that contract names its fields.
 * `ban-user` and `set-vip-status` are aliases of the users declaration's actions (the kit
 * registers them); the password reset stays here: it changes no user, it e-mails a link.
 */
export const userMgmtEndpoints: ModuleEndpoints = async (app, { db, config, mailer, bound }) => {
  // Two pages of users of one role: all of them, or those waiting for approval.
  for (const [path, thing, summary, which] of [
    ["get-user-list", "User List", "Users of one role", ofRole],
    ["pending-verify-user", "Pending Verify User", "Pending users of one role", pendingOfRole],
  ] as const) {
    app.get(
      `/user-mgmt/${path}`,
      {
        config: { thing },
        schema: {
          tags,
          summary: `${summary}, newest first, in pages of at most 100 (page, page_size)`,
          querystring: roleListQuerySchema,
          response: { 200: mgmtUserPageSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => pageOfUsers(db, which(request.query.role), request.query),
    );
  }

  app.get(
    "/user-mgmt/search-buyer",
    {
      config: { thing: "Search Buyer" },
      schema: {
        tags,
        summary: "At most 20 users whose name, e-mail, phone or account number contains the text",
        querystring: searchBuyerQuerySchema,
        response: { 200: searchBuyerResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({
      users: await searchBuyers(db, bound.collection, request.query.search),
    }),
  );

  app.post(
    "/user-mgmt/reset-user-password",
    {
      config: { thing: "Reset User Password" },
      schema: {
        tags,
        summary: "E-mail the user a one-time password reset link (valid 1 hour)",
        description:
          "The link is `${PUBLIC_URL}/reset-password?token=…`; only the " +
          "token's hash is stored, and an earlier unused link stops working. 409 NO_EMAIL when " +
          "the user has no e-mail; 502 MAIL_FAILED when the mail could not be sent.",
        body: resetPasswordBodySchema,
        response: {
          202: resetPasswordResponseSchema,
          ...errorResponses(400, 401, 403, 404, 409),
          502: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const reset = await issuePasswordReset(
        db,
        currentAdmin(request),
        request.body.account_number,
      );
      const sent = await sendResetLink(mailer, config.publicUrl, request.log, {
        audience: "wallet",
        to: reset.email,
        name: reset.user.name,
        token: reset.token,
        expiresAt: reset.expiresAt,
      });
      return reply.status(202).send(sent);
    },
  );
};
