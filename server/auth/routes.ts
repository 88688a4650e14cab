import { eq, lt } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";

import { recordAudit } from "../audit";
import { administrators, revokedTokens, type AdministratorRow } from "../db/schema";
import { HttpError } from "../errors";
import { requestLanguage, SERVER_TEXTS } from "../http/language";
import { renderLockoutEmail } from "../mail/lockout-email";
import type { RouteDeps } from "../http/deps";
import { loginBodySchema, loginResponseSchema } from "../../src/shared/schemas/auth";
import { errorResponses } from "../../src/shared/schemas/common";
import { findAdministratorByEmail, toAdminDto } from "../services/administrators";
import { supportEmail } from "../services/settings";
import { createAccountLockout } from "./account-lockout";
import { createLoginGuard } from "./login-guard";
import { verifyAgainstDecoy, verifyPassword } from "./password";

export const LOGIN_MESSAGES = {
  wrongPassword: "Wrong password",
  banned: "User is banned from login.",
  disabled: "User is disabled.",
} as const;

/** The e-mail part of the login rate-limit key, read before validation (the body may be junk). */
function emailOf(body: unknown): string {
  const email = (body as { email?: unknown } | null)?.email;
  return typeof email === "string" ? email.trim().toLowerCase().slice(0, 254) : "";
}

/**
 * POST /api/auth/login. A wrong password and an unknown e-mail give the same 401 after the same
 * amount of work (a decoy hash), so neither the answer nor its timing reveals which e-mails exist.
 */
export const authRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  const { db, config, tokens } = deps;
  const loginGuard = createLoginGuard(config.loginFailuresPerAddress, deps.counters);
  const lockout = createAccountLockout(config.loginLockout, deps.counters);

  /**
   * Failed logins have just locked `admin`'s account: an audit entry on it, and its owner is told
   * by e-mail in their language (after the answer: a mail server's delay must not tell a guesser
   * that the e-mail is an administrator's).
   */
  async function accountLocked(admin: AdministratorRow, request: FastifyRequest) {
    await recordAudit(db, {
      adminId: null,
      action: "auth.lockout",
      targetTable: "administrators",
      targetId: admin.id,
      remark: `${config.loginLockout.failures} failed logins, the last from ${request.ip}`,
    });
    const mail = renderLockoutEmail(admin, config.loginLockout.minutes, request.ip);
    void deps.mailer.send(mail).catch((error: unknown) => {
      const { code, responseCode } = (error ?? {}) as Record<string, unknown>;
      request.log.error({ event: "auth.lockout", code, responseCode }, "lockout mail not sent");
    });
  }
  app.post(
    "/api/auth/login",
    {
      config: {
        access: "public",
        rateLimit: {
          max: config.loginRateLimit,
          timeWindow: 60_000,
          // After parsing, so the key can include the e-mail being tried.
          hook: "preValidation",
          keyGenerator: (request) => `${request.ip}|${emailOf(request.body)}`,
        },
      },
      schema: {
        tags: ["auth"],
        summary: "Log in with e-mail and password",
        body: loginBodySchema,
        response: { 200: loginResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const { email, password } = request.body;
      // A spray across e-mails from one address is stopped before it costs a hash, and so are
      // guesses at one account from any number of addresses.
      const attempt = await loginGuard.begin(request.ip);
      let valid = false;
      let admin: Awaited<ReturnType<typeof findAdministratorByEmail>>;
      let lockedNow = false;
      try {
        const accountAttempt = await lockout.begin(email.trim().toLowerCase());
        try {
          admin = await findAdministratorByEmail(db, email);
          valid = admin
            ? await verifyPassword(password, admin.passwordHash)
            : await verifyAgainstDecoy(password);
        } finally {
          lockedNow = await lockout.end(accountAttempt, valid);
        }
      } finally {
        await loginGuard.end(attempt, valid);
      }
      if (lockedNow && admin) await accountLocked(admin, request);
      if (!admin || !valid) {
        throw new HttpError(
          401,
          LOGIN_MESSAGES.wrongPassword,
          undefined,
          SERVER_TEXTS.wrongCredentials[requestLanguage(request)],
        );
      }
      if (admin.status !== "active") {
        // A disabled account is told so, not that it is banned: each has its own message.
        throw new HttpError(403, LOGIN_MESSAGES[admin.status], undefined, {
          email: await supportEmail(db, config),
        });
      }
      const updated = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(administrators)
          .set({ lastLoginAt: new Date() })
          .where(eq(administrators.id, admin.id))
          .returning();
        await recordAudit(tx, {
          adminId: admin.id,
          action: "auth.login",
          targetTable: "administrators",
          targetId: admin.id,
          remark: `from ${request.ip}`,
        });
        return row ?? admin;
      });
      return {
        token: await tokens.sign(admin.id, updated.credentialVersion),
        admin: toAdminDto(updated),
      };
    },
  );

  app.post(
    "/api/auth/logout",
    {
      config: { access: "session" },
      schema: {
        tags: ["auth"],
        summary: "Log out: the presented token stops working at once, on every server instance",
        response: { 204: z.undefined().describe("Logged out"), ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      const claims = request.token;
      if (!claims) throw new Error("logout without the token's claims");
      await db.transaction(async (tx) => {
        // Tokens past their expiry need no row: a logout tidies them away.
        await tx.delete(revokedTokens).where(lt(revokedTokens.expiresAt, new Date()));
        await tx
          .insert(revokedTokens)
          .values({ jti: claims.jti, expiresAt: claims.expiresAt })
          .onConflictDoNothing();
        await recordAudit(tx, {
          adminId: claims.subject,
          action: "auth.logout",
          targetTable: "administrators",
          targetId: claims.subject,
        });
      });
      return reply.status(204).send();
    },
  );
};
