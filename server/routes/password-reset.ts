import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { z } from "zod";

import { limiterScope } from "../rate-limit/store";
import { enforceLimit, HOUR_MS } from "../report/limits";
import { administratorResetLinks } from "../services/admin-password-reset";
import type { ResetLinkUses } from "../services/password-reset";
import { walletResetLinks } from "../services/wallet-app";
import { errorResponses } from "../../src/shared/schemas/common";
import {
  resetLinkBodySchema,
  resetPasswordBodySchema,
  staffResetLinkSchema,
} from "../../src/shared/schemas/password-reset";
import { resetLinkSchema } from "../../src/shared/schemas/wallet-app";
import type { RouteDeps } from "../http/deps";

const LINK_ERRORS =
  "404 RESET_LINK_INVALID (no such link), 410 RESET_LINK_EXPIRED, 410 RESET_LINK_USED (used, or " +
  "replaced by a newer link); 429 RATE_LIMITED (PASSWORD_RESET_RATE_LIMIT_PER_IP an hour, " +
  "wallet and console links together).";

/** What each kind of link's two public calls answer with and do. */
interface ResetLinkKind<View extends object = object> {
  prefix: string;
  tag: string;
  who: string;
  view: z.ZodType<View>;
  link: ResetLinkUses<View>;
  /** What completing ends, for the description. */
  ends: string;
}

/**
 * The public pages' calls behind an e-mailed password reset link: check it (changes nothing),
 * then set the password with it (once). Wallet users' links and administrators' links are told
 * apart by their route: neither page spends the other's. No session: the link is the credential.
 */
export const passwordResetRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { db, config },
) => {
  const perIp = app.createRateLimit({
    max: config.passwordResetRateLimitPerIp,
    timeWindow: HOUR_MS,
    ...limiterScope("password-reset-per-ip"),
  });
  // Before the body is read: guessing links costs a request each, and few of them.
  const limitResets = (request: FastifyRequest, reply: FastifyReply) =>
    enforceLimit(perIp, request, reply, "Too many password reset attempts from this address");

  const routesOf = (kind: ResetLinkKind) => {
    const errors = errorResponses(400, 404, 410, 429);
    app.post(
      `${kind.prefix}/password-reset/check`,
      {
        config: { access: "public" },
        onRequest: limitResets,
        schema: {
          tags: [kind.tag],
          summary: `Whose password an e-mailed reset link sets (${kind.who}), and until when it works`,
          description: `Changes nothing. ${LINK_ERRORS}`,
          security: [],
          body: resetLinkBodySchema,
          response: { 200: kind.view, ...errors },
        },
      },
      async (request) => kind.link.check(db, request.body.token),
    );
    app.post(
      `${kind.prefix}/password-reset`,
      {
        config: { access: "public" },
        onRequest: limitResets,
        schema: {
          tags: [kind.tag],
          summary: `Set ${kind.who}'s password with an e-mailed reset link (once)`,
          description:
            "The password follows the administrators' policy (400 WEAK_PASSWORD names the broken " +
            `rules). The link stops working and ${kind.ends}. ${LINK_ERRORS}`,
          security: [],
          body: resetPasswordBodySchema,
          response: { 200: kind.view, ...errors },
        },
      },
      async (request) => kind.link.complete(db, request.body.token, request.body.password),
    );
  };

  routesOf({
    prefix: "/api/app",
    tag: "wallet app",
    who: "a wallet user",
    view: resetLinkSchema,
    link: walletResetLinks,
    ends: "every earlier wallet app token is ended",
  });
  routesOf({
    prefix: "/api/auth",
    tag: "auth",
    who: "an administrator",
    view: staffResetLinkSchema,
    link: administratorResetLinks,
    ends: "every session the administrator had is ended (a banned or disabled one stays so)",
  });
};
