import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

import { createLoginGuard } from "../auth/login-guard";
import { checkWalletPassword, walletProfileOf } from "../services/wallet-app";
import { errorResponses } from "../../src/shared/schemas/common";
import {
  walletProfileSchema,
  walletSignInBodySchema,
  walletSignInResponseSchema,
} from "../../src/shared/schemas/wallet-app";
import type { RouteDeps } from "../http/deps";

/**
 * The wallet app's calls: the sign-in with the password set through an e-mailed link
 * (password-reset.ts) and the signed-in user. Wallet app tokens have their own audience, so the
 * console's routes refuse them, and their own credential version (a reset ends older ones).
 */
export const walletAppRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  const { db, config, counters, walletTokens } = deps;
  // Failed sign-ins count against the client address with the console's logins: one budget.
  const loginGuard = createLoginGuard(config.loginFailuresPerAddress, counters);

  app.post(
    "/api/app/sign-in",
    {
      config: { access: "public" },
      schema: {
        tags: ["wallet app"],
        summary: "The wallet app's sign-in with account number and wallet password",
        description:
          "401 WRONG_CREDENTIALS for an unknown account, one without a password yet, or a wrong " +
          "password (alike); 403 USER_BANNED; 429 RATE_LIMITED after LOGIN_FAILURES_PER_ADDRESS " +
          "failures a minute from one address (shared with the console's logins).",
        security: [],
        body: walletSignInBodySchema,
        response: { 200: walletSignInResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const attempt = await loginGuard.begin(request.ip);
      let succeeded = false;
      try {
        const user = await checkWalletPassword(
          db,
          request.body.accountNumber,
          request.body.password,
        );
        succeeded = true;
        return {
          token: await walletTokens.sign(user.id, user.credentialVersion),
          profile: await walletProfileOf(db, user),
        };
      } finally {
        await loginGuard.end(attempt, succeeded);
      }
    },
  );

  app.get(
    "/api/app/me",
    {
      config: { access: "wallet" },
      schema: {
        tags: ["wallet app"],
        summary: "The signed-in wallet user: name, role, approval and balance",
        description:
          "Needs a wallet app token (`Bearer <token>` from sign-in): 401 without one, with a " +
          "console token, or with one issued before the user's last password reset; 403 once banned.",
        response: { 200: walletProfileSchema },
      },
    },
    async (request) => {
      if (!request.walletUser) throw new Error("/api/app/me without its wallet user");
      return walletProfileOf(db, request.walletUser);
    },
  );
};
