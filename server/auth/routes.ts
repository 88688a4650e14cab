import { eq } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";

import { recordAudit } from "../audit";
import { administrators, type AdministratorRow } from "../db/schema";
import { HttpError } from "../errors";
import { requestLanguage, SERVER_TEXTS } from "../http/language";
import { renderLockoutEmail } from "../mail/lockout-email";
import type { RouteDeps } from "../http/deps";
import {
  loginBodySchema,
  loginResponseSchema,
  passkeyChallengeBodySchema,
  passkeyOptionsSchema,
  passkeySignInBodySchema,
  secondFactorBodySchema,
  sessionStateSchema,
  signedInSchema,
  stepUpBodySchema,
  type CodeMethod,
  type PasskeyAssertion,
  type SecondFactorMethod,
} from "../../src/shared/schemas/auth";
import { errorResponses } from "../../src/shared/schemas/common";
import { secondFactorRequiredOf } from "../../src/shared/global-settings";
import { findAdministratorByEmail, toAdminDto } from "../services/administrators";
import { readGlobalSettings } from "../services/global-settings";
import { supportEmail } from "../services/settings";
import { createAccountLockout } from "./account-lockout";
import { currentAdmin } from "./access";
import { factorsOf, proveCode, recoveryCodeOf, totpCodeOf, wrongCode } from "./factors";
import { newTicket, ticketFailed, ticketHolder, useTicket } from "./login-tickets";
import { createLoginGuard } from "./login-guard";
import {
  authenticationOptions,
  passkeyFailed,
  passkeyHolder,
  provePasskey,
  type PasskeyPurpose,
} from "./passkeys";
import { verifyAgainstDecoy, verifyPassword } from "./password";
import { secretBox } from "./secret-box";
import { deviceOf, type Proof } from "./sessions";

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

/** Where a sign-in came from, as the login history says it: the address and the device. */
const whereFrom = (request: FastifyRequest) => `from ${request.ip} on ${deviceOf(request)}`;

/** A code's form is checked before it counts as a guess: a typing slip costs no attempt. */
function checkedForm(method: CodeMethod, code: string): void {
  if (method === "totp") totpCodeOf(code);
  else recoveryCodeOf(code);
}

/** A second factor as a request sends it: a typed code, or a passkey's answer. */
type FactorProof =
  { method: CodeMethod; code: string } | { method: "passkey"; credential: PasskeyAssertion };

/** The refusal of a second factor that did not prove who one is. */
const refused = (proof: FactorProof) =>
  proof.method === "passkey" ? passkeyFailed() : wrongCode();

/**
 * Sign-in, its second factor, step-up and logout. A wrong password and an unknown e-mail give the
 * same 401 after the same amount of work (a decoy hash), so neither the answer nor its timing
 * reveals which e-mails exist. An administrator with a second factor gets a ticket for it instead
 * of a session; every guess, at a password or a code, counts towards the account's lockout.
 */
export const authRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  const { db, config, sessions } = deps;
  const totpSecrets = secretBox(config.secondFactorKey);

  /** Checks `proof` (answering a challenge made for `purpose`) as a second factor of `adminId`. */
  function proveFactor(
    adminId: number,
    purpose: Exclude<PasskeyPurpose, "register" | "sign-in">,
    proof: FactorProof,
  ): Promise<boolean> {
    return proof.method === "passkey"
      ? provePasskey(db, config.passkeys, purpose, adminId, proof.credential)
      : proveCode(db, totpSecrets, adminId, proof.method, proof.code);
  }
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

  /**
   * Runs `check` (a password or a code of `admin`'s) as one attempt on the account's lockout:
   * refused at once while it is locked; a failure that locks it tells its owner.
   */
  async function guessed(
    admin: AdministratorRow,
    request: FastifyRequest,
    check: () => Promise<boolean>,
  ): Promise<boolean> {
    const attempt = await lockout.begin(admin.email.trim().toLowerCase());
    let valid = false;
    try {
      valid = await check();
    } finally {
      if (await lockout.end(attempt, valid ? "succeeded" : "failed")) {
        await accountLocked(admin, request);
      }
    }
    return valid;
  }

  /** A wrong password or code for an administrator's account: their login history shows it. */
  async function failed(admin: AdministratorRow, action: string, request: FastifyRequest) {
    await recordAudit(db, {
      adminId: null,
      action,
      targetTable: "administrators",
      targetId: admin.id,
      remark: whereFrom(request),
    });
  }

  /** A banned or disabled account is told so (each has its own message), with whom to contact. */
  async function refuseInactive(admin: AdministratorRow): Promise<void> {
    if (admin.status === "active") return;
    throw new HttpError(403, LOGIN_MESSAGES[admin.status], undefined, {
      email: await supportEmail(db, config),
    });
  }

  /** The administrator a live sign-in ticket names (400 LOGIN_TICKET_EXPIRED for any other). */
  async function ticketAdmin(ticket: string): Promise<AdministratorRow> {
    const adminId = await ticketHolder(db, ticket);
    const [admin] = await db.select().from(administrators).where(eq(administrators.id, adminId));
    if (!admin) throw new HttpError(400, "Sign in again", "LOGIN_TICKET_EXPIRED");
    return admin;
  }

  /** Opens `admin`'s session, proved by `proof`: the token, audited with where it came from. */
  async function signIn(
    admin: AdministratorRow,
    request: FastifyRequest,
    proof: Proof,
    mustEnrol = false,
  ) {
    return db.transaction(async (tx) => {
      const [row] = await tx
        .update(administrators)
        .set({ lastLoginAt: new Date() })
        .where(eq(administrators.id, admin.id))
        .returning();
      const token = await sessions.open(tx, admin, request, proof, mustEnrol);
      await recordAudit(tx, {
        adminId: admin.id,
        action: "auth.login",
        targetTable: "administrators",
        targetId: admin.id,
        remark: `${whereFrom(request)} with ${proof}`,
      });
      return { token, admin: await toAdminDto(tx, row ?? admin) };
    });
  }

  const loginRateLimit = {
    max: config.loginRateLimit,
    timeWindow: 60_000,
    // After parsing, so the key can include the e-mail being tried.
    hook: "preValidation" as const,
    keyGenerator: (request: FastifyRequest) => `${request.ip}|${emailOf(request.body)}`,
  };

  app.post(
    "/api/auth/login",
    {
      config: { access: "public", rateLimit: loginRateLimit },
      schema: {
        tags: ["auth"],
        summary: "Log in with e-mail and password",
        description:
          "An administrator with a second factor is answered with a ticket for it " +
          "(POST /api/auth/login/second-factor) instead of a token.",
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
      let methods: SecondFactorMethod[] = [];
      let lockedNow = false;
      try {
        const accountAttempt = await lockout.begin(email.trim().toLowerCase());
        try {
          admin = await findAdministratorByEmail(db, email);
          valid = admin
            ? await verifyPassword(password, admin.passwordHash)
            : await verifyAgainstDecoy(password);
          if (valid && admin) methods = (await factorsOf(db, admin.id)).methods;
        } finally {
          const outcome = !valid ? "failed" : methods.length > 0 ? "passed" : "succeeded";
          lockedNow = await lockout.end(accountAttempt, outcome);
        }
      } finally {
        await loginGuard.end(attempt, valid);
      }
      if (admin && !valid) await failed(admin, "auth.login_failed", request);
      if (lockedNow && admin) await accountLocked(admin, request);
      if (!admin || !valid) {
        throw new HttpError(
          401,
          LOGIN_MESSAGES.wrongPassword,
          undefined,
          SERVER_TEXTS.wrongCredentials[requestLanguage(request)],
        );
      }
      await refuseInactive(admin);
      if (methods.length > 0) {
        return { secondFactor: { ticket: await newTicket(db, admin.id), methods } };
      }
      // Required of this administrator and not set up: a session that serves only enrolment.
      const mustEnrol = secondFactorRequiredOf(await readGlobalSettings(db), admin);
      return {
        ...(await signIn(admin, request, "password", mustEnrol)),
        enrolmentRequired: mustEnrol,
      };
    },
  );

  app.post(
    "/api/auth/login/second-factor",
    {
      config: {
        access: "public",
        rateLimit: { ...loginRateLimit, keyGenerator: (request) => request.ip },
      },
      schema: {
        tags: ["auth"],
        summary:
          "Finish a sign-in with a second factor: a passkey, a code from the authenticator app, or a recovery code",
        description:
          "A passkey answers a challenge made for this ticket (POST /api/auth/passkey/challenge). " +
          "400 TOTP_CODE_FORMAT / RECOVERY_CODE_FORMAT for a code of the wrong form (no attempt " +
          "counted), 400 WRONG_CODE for a wrong or used code, 400 PASSKEY_FAILED for a passkey " +
          "not accepted, 400 LOGIN_TICKET_EXPIRED after 5 minutes or 5 wrong proofs, " +
          "429 ACCOUNT_LOCKED as for the password.",
        body: secondFactorBodySchema,
        response: { 200: signedInSchema, ...errorResponses(400, 403, 429) },
      },
    },
    async (request) => {
      const { ticket, ...proof } = request.body;
      if (proof.method !== "passkey") checkedForm(proof.method, proof.code);
      const admin = await ticketAdmin(ticket);
      await refuseInactive(admin);
      const valid = await guessed(admin, request, () =>
        proveFactor(admin.id, "second-factor", proof),
      );
      if (!valid) {
        await ticketFailed(db, ticket);
        await failed(admin, "auth.second_factor_failed", request);
        throw refused(proof);
      }
      await useTicket(db, ticket);
      return signIn(admin, request, proof.method);
    },
  );

  app.post(
    "/api/auth/passkey/challenge",
    {
      config: {
        access: "public",
        rateLimit: { ...loginRateLimit, keyGenerator: (request) => request.ip },
      },
      schema: {
        tags: ["auth"],
        summary: "A challenge for a passkey: the second factor of a sign-in, or a sign-in alone",
        description:
          "With the ticket of a sign-in whose password was right: for its second factor, naming " +
          "that administrator's passkeys (400 PASSKEY_FAILED when they have none). Without: for " +
          "POST /api/auth/login/passkey, any passkey of this site the device holds, unlocked " +
          "with its PIN or biometrics. Single-use, valid 5 minutes.",
        body: passkeyChallengeBodySchema,
        response: { 200: passkeyOptionsSchema, ...errorResponses(400, 429) },
      },
    },
    async (request) => {
      const { ticket } = request.body;
      if (ticket === undefined) {
        return authenticationOptions(db, config.passkeys, "sign-in", null);
      }
      const admin = await ticketAdmin(ticket);
      if (!(await factorsOf(db, admin.id)).methods.includes("passkey")) throw passkeyFailed();
      return authenticationOptions(db, config.passkeys, "second-factor", admin.id);
    },
  );

  app.post(
    "/api/auth/login/passkey",
    {
      config: {
        access: "public",
        rateLimit: { ...loginRateLimit, keyGenerator: (request) => request.ip },
      },
      schema: {
        tags: ["auth"],
        summary: "Sign in with a passkey alone (no password: the passkey is two factors)",
        description:
          "Answers a challenge from POST /api/auth/passkey/challenge without a ticket; the " +
          "authenticator must have verified its user (PIN or biometrics). 400 PASSKEY_FAILED " +
          "for any passkey not accepted; it counts towards its account's lockout.",
        body: passkeySignInBodySchema,
        response: { 200: signedInSchema, ...errorResponses(400, 403, 429) },
      },
    },
    async (request) => {
      const { credential } = request.body;
      const attempt = await loginGuard.begin(request.ip);
      let admin: AdministratorRow | undefined;
      let valid = false;
      try {
        const adminId = await passkeyHolder(db, credential);
        if (adminId !== null) {
          [admin] = await db.select().from(administrators).where(eq(administrators.id, adminId));
        }
        if (admin) {
          const holder = admin;
          valid = await guessed(holder, request, () =>
            provePasskey(db, config.passkeys, "sign-in", holder.id, credential, null),
          );
        }
      } finally {
        await loginGuard.end(attempt, valid);
      }
      if (!admin || !valid) {
        if (admin) await failed(admin, "auth.login_failed", request);
        throw passkeyFailed();
      }
      await refuseInactive(admin);
      return signIn(admin, request, "passkey");
    },
  );

  app.get(
    "/api/auth/session",
    {
      config: { access: "session", enrolment: true },
      schema: {
        tags: ["auth"],
        summary: "The signed-in session: how long it may stay idle, when it ends, its last proof",
        response: { 200: sessionStateSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const admin = currentAdmin(request);
      const session = request.session!;
      const { methods } = await factorsOf(db, admin.id);
      return {
        idleMinutes: sessions.settings.idleMinutes,
        stepUpMinutes: sessions.settings.stepUpMinutes,
        expiresAt: session.expiresAt.toISOString(),
        verifiedAt: session.verifiedAt.toISOString(),
        stepUpMethods: methods.length > 0 ? methods : ["password" as const],
        enrolmentRequired: session.mustEnrol,
      };
    },
  );

  app.post(
    "/api/auth/step-up/challenge",
    {
      config: { access: "session", enrolment: true },
      schema: {
        tags: ["auth"],
        summary: "A challenge for a step-up with one of your passkeys (single-use, 5 minutes)",
        description: "400 PASSKEY_FAILED when you have no passkey.",
        response: { 200: passkeyOptionsSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const admin = currentAdmin(request);
      if (!(await factorsOf(db, admin.id)).methods.includes("passkey")) throw passkeyFailed();
      return authenticationOptions(db, config.passkeys, "step-up", admin.id);
    },
  );

  app.post(
    "/api/auth/step-up",
    {
      config: {
        access: "session",
        enrolment: true,
        rateLimit: { ...loginRateLimit, keyGenerator: (request) => request.ip },
      },
      schema: {
        tags: ["auth"],
        summary: "Prove who you are again, for the sensitive actions of the next STEP_UP_MINUTES",
        description:
          "With a second factor when the administrator has one (400 STEP_UP_METHOD for the " +
          "password then), else the password; a passkey answers a challenge from " +
          "POST /api/auth/step-up/challenge. Wrong codes, passkeys and passwords count towards " +
          "the account's lockout (429 ACCOUNT_LOCKED).",
        body: stepUpBodySchema,
        response: { 204: z.undefined().describe("Proved"), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const admin = currentAdmin(request);
      const proof = request.body;
      const { method } = proof;
      const { methods } = await factorsOf(db, admin.id);
      const allowed = methods.length > 0 ? methods : ["password"];
      if (!(allowed as string[]).includes(method)) {
        throw new HttpError(400, `Confirm with ${allowed.join(" or ")}`, "STEP_UP_METHOD", {
          methods: allowed,
        });
      }
      const password = proof.method === "password" ? proof.code : undefined;
      const factor = proof.method === "password" ? undefined : (proof as FactorProof);
      if (factor && factor.method !== "passkey") checkedForm(factor.method, factor.code);
      const valid = await guessed(admin, request, () =>
        factor
          ? proveFactor(admin.id, "step-up", factor)
          : verifyPassword(password!, admin.passwordHash),
      );
      if (!valid) {
        await failed(admin, "auth.step_up_failed", request);
        if (factor) throw refused(factor);
        throw new HttpError(400, "The current password is not correct", "WRONG_CURRENT_PASSWORD");
      }
      await db.transaction(async (tx) => {
        await sessions.verified(tx, request.session!.jti, method);
        await recordAudit(tx, {
          adminId: admin.id,
          action: "auth.step_up",
          targetTable: "administrators",
          targetId: admin.id,
          remark: `${whereFrom(request)} with ${method}`,
        });
      });
      return reply.status(204).send();
    },
  );

  app.post(
    "/api/auth/logout",
    {
      config: { access: "session", enrolment: true },
      schema: {
        tags: ["auth"],
        summary: "Log out: the session ends at once, on every server instance",
        response: { 204: z.undefined().describe("Logged out"), ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      const admin = currentAdmin(request);
      await db.transaction(async (tx) => {
        await sessions.end(tx, admin.id, request.session!.jti, "logout");
        await recordAudit(tx, {
          adminId: admin.id,
          action: "auth.logout",
          targetTable: "administrators",
          targetId: admin.id,
        });
      });
      return reply.status(204).send();
    },
  );
};
