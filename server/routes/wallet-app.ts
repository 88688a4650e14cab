import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

import { createLoginGuard } from "../auth/login-guard";
import { HttpError } from "../errors";
import { limiterScope } from "../rate-limit/store";
import {
  checkWalletPassword,
  completePasswordReset,
  resetLink,
  walletProfileOf,
} from "../services/wallet-app";
import { errorResponses } from "../../src/shared/schemas/common";
import {
  resetLinkBodySchema,
  resetLinkSchema,
  resetPasswordBodySchema,
  walletProfileSchema,
  walletSignInBodySchema,
  walletSignInResponseSchema,
} from "../../src/shared/schemas/wallet-app";
import type { RouteDeps } from "./types";

const HOUR_MS = 3_600_000;

const LINK_ERRORS =
  "404 RESET_LINK_INVALID (no such link), 410 RESET_LINK_EXPIRED, 410 RESET_LINK_USED (used, or " +
  "replaced by a newer link); 429 RATE_LIMITED (PASSWORD_RESET_RATE_LIMIT_PER_IP an hour).";

/**
 * The wallet app's calls: the public reset page's two (check the e-mailed link, set the password)
 * and the app's sign-in with the new password. Wallet app tokens have their own audience, so the
 * console's routes refuse them, and their own credential version (a reset ends older ones).
 */
export const walletAppRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  const { db, config, counters, walletTokens } = deps;
  // Failed sign-ins count against the client address with the console's logins: one budget.
  const loginGuard = createLoginGuard(config.loginFailuresPerAddress, counters);
  const perIp = app.createRateLimit({
    max: config.passwordResetRateLimitPerIp,
    timeWindow: HOUR_MS,
    ...limiterScope("password-reset-per-ip"),
  });
  // Before the body is read: guessing links costs a request each, and few of them.
  const limitResets = async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await perIp(request);
    if (result.isAllowed || !result.isExceeded) return;
    reply.header("retry-after", result.ttlInSeconds);
    const minutes = Math.max(1, Math.ceil(result.ttlInSeconds / 60));
    throw new HttpError(
      429,
      `Too many password reset attempts from this address, retry in ${minutes} minute${minutes === 1 ? "" : "s"}`,
      "RATE_LIMITED",
      { retryAfterSeconds: result.ttlInSeconds },
    );
  };

  app.post(
    "/api/app/password-reset/check",
    {
      config: { access: "public" },
      onRequest: limitResets,
      schema: {
        tags: ["wallet app"],
        summary: "Whose password an e-mailed reset link sets, and until when it works",
        description: `Changes nothing. ${LINK_ERRORS}`,
        security: [],
        body: resetLinkBodySchema,
        response: { 200: resetLinkSchema, ...errorResponses(400, 404, 410, 429) },
      },
    },
    async (request) => resetLink(db, request.body.token),
  );

  app.post(
    "/api/app/password-reset",
    {
      config: { access: "public" },
      onRequest: limitResets,
      schema: {
        tags: ["wallet app"],
        summary: "Set the wallet password with an e-mailed reset link (once)",
        description:
          "The password follows the administrators' policy (400 WEAK_PASSWORD names the broken " +
          `rules). The link stops working and every earlier wallet app token is ended. ${LINK_ERRORS}`,
        security: [],
        body: resetPasswordBodySchema,
        response: { 200: resetLinkSchema, ...errorResponses(400, 404, 410, 429) },
      },
    },
    async (request) => completePasswordReset(db, request.body.token, request.body.password),
  );

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
