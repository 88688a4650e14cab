/**
 * An administrator's own second factors and sessions (/api/account/factors, /api/account/passkeys,
 * /api/account/sessions): registering passkeys, enrolling an authenticator app (a QR code and its
 * secret as text, confirmed with a code), recovery codes (ten, shown once), and the sessions
 * still open, any of which they can end. Changing a factor is sensitive: it needs a fresh proof
 * (step-up) like a money action.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import QRCode from "qrcode";
import { z } from "zod";

import {
  endedSessionsSchema,
  factorsSchema,
  passkeyAddedSchema,
  passkeyOptionsSchema,
  passkeyRegistrationBodySchema,
  recoveryCodesSchema,
  sessionListSchema,
  totpConfirmBodySchema,
  totpEnrolmentSchema,
} from "../../src/shared/schemas/auth";
import { errorResponses, idParamsSchema } from "../../src/shared/schemas/common";
import { recordAudit } from "../audit";
import { secondFactorRequiredOf } from "../../src/shared/global-settings";
import {
  adminPasskeys,
  adminRecoveryCodes,
  adminSessions,
  adminTotp,
  type AdminSessionRow,
} from "../db/schema";
import type { Tx } from "../db";
import { readGlobalSettings } from "../services/global-settings";
import { conflict, notFound } from "../errors";
import type { RouteDeps } from "../http/deps";
import { currentAdmin } from "./access";
import {
  claimStep,
  factorsOf,
  hasSecondFactor,
  newRecoveryCodes,
  newTotpSecret,
  stepOf,
  totpCodeOf,
  totpUri,
  wrongCode,
} from "./factors";
import { registrationOptions, verifyRegistration } from "./passkeys";
import { secretBox, totpContext } from "./secret-box";
import type { Proof } from "./sessions";

const sessionIdParams = z.strictObject({ id: z.uuid().describe("The session's id") });

export function sessionDto(row: AdminSessionRow, currentJti: string | undefined) {
  return {
    id: row.jti,
    address: row.address,
    device: row.device,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    current: row.jti === currentJti,
  };
}

export const securityRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  const { db, sessions, config } = deps;
  const totpSecrets = secretBox(config.secondFactorKey);
  const audit = (adminId: number, action: string, remark?: string) => ({
    adminId,
    action,
    targetTable: "administrators",
    targetId: adminId,
    ...(remark !== undefined && { remark }),
  });

  app.get(
    "/api/account/factors",
    {
      config: { access: "session", enrolment: true },
      schema: {
        tags: ["account"],
        summary: "The signed-in administrator's second factors",
        response: { 200: factorsSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const factors = await factorsOf(db, currentAdmin(request).id);
      return {
        ...factors,
        totpSince: factors.totpSince?.toISOString() ?? null,
        passkeys: factors.passkeys.map((passkey) => ({
          ...passkey,
          createdAt: passkey.createdAt.toISOString(),
          lastUsedAt: passkey.lastUsedAt?.toISOString() ?? null,
        })),
      };
    },
  );

  /**
   * A second factor was just confirmed by `request`'s administrator with `proof`: it is a proof
   * of its own, and the administrator's sessions that waited for one serve everything now.
   */
  async function factorConfirmed(tx: Tx, request: FastifyRequest, proof: Proof) {
    const admin = currentAdmin(request);
    await sessions.verified(tx, request.session!.jti, proof);
    await tx
      .update(adminSessions)
      .set({ mustEnrol: false })
      .where(eq(adminSessions.adminId, admin.id));
  }

  /**
   * Removes a second factor of `request`'s administrator (`remove`: whether there was one, else
   * 404 for `what`), audited as `action`; refused when it is the last and the settings require
   * one. The recovery codes go with the last factor.
   */
  async function removeFactor(
    request: FastifyRequest,
    what: string,
    action: string,
    remove: (tx: Tx) => Promise<boolean>,
  ) {
    const admin = currentAdmin(request);
    const required = secondFactorRequiredOf(await readGlobalSettings(db), admin);
    await db.transaction(async (tx) => {
      if (!(await remove(tx))) throw notFound(what);
      if (!(await hasSecondFactor(tx, admin.id))) {
        if (required) {
          throw conflict(
            "SECOND_FACTOR_REQUIRED",
            "A second factor is required for your account: its last one cannot be removed",
          );
        }
        await tx.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, admin.id));
      }
      await recordAudit(tx, audit(admin.id, action, `from ${request.ip}`));
    });
  }

  app.post(
    "/api/account/passkeys/challenge",
    {
      config: { access: "session", enrolment: true, stepUp: true },
      schema: {
        tags: ["account"],
        summary: "Start registering a passkey: the options for the browser (step-up)",
        description:
          "Answer it with POST /api/account/passkeys within 5 minutes (single-use). The " +
          "administrator's passkeys are excluded, so one authenticator is not registered twice.",
        response: { 200: passkeyOptionsSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const admin = currentAdmin(request);
      return registrationOptions(db, config.passkeys, admin);
    },
  );

  app.post(
    "/api/account/passkeys",
    {
      config: { access: "session", enrolment: true },
      schema: {
        tags: ["account"],
        summary: "Register a passkey with the browser's answer to its challenge",
        description:
          "400 PASSKEY_FAILED when the answer is not for a live challenge of yours, from this " +
          "site, or does not verify; 409 PASSKEY_EXISTS for one already registered. With the " +
          "first second factor: ten recovery codes, shown this once.",
        body: passkeyRegistrationBodySchema,
        response: { 200: passkeyAddedSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request) => {
      const admin = currentAdmin(request);
      const { name, credential } = request.body;
      const made = await verifyRegistration(db, config.passkeys, admin.id, credential);
      return db.transaction(async (tx) => {
        const first = !(await hasSecondFactor(tx, admin.id));
        const [passkey] = await tx
          .insert(adminPasskeys)
          .values({ adminId: admin.id, name, ...made })
          .onConflictDoNothing({ target: adminPasskeys.credentialId })
          .returning();
        if (!passkey) throw conflict("PASSKEY_EXISTS", "This passkey is registered already");
        const recoveryCodes = first ? await newRecoveryCodes(tx, admin.id) : undefined;
        await factorConfirmed(tx, request, "passkey");
        await recordAudit(
          tx,
          audit(admin.id, "account.passkey_added", `"${name}" from ${request.ip}`),
        );
        return {
          passkey: {
            id: passkey.id,
            name: passkey.name,
            createdAt: passkey.createdAt.toISOString(),
            lastUsedAt: null,
            synced: passkey.synced,
          },
          ...(recoveryCodes && { recoveryCodes }),
        };
      });
    },
  );

  app.delete(
    "/api/account/passkeys/:id",
    {
      config: { access: "session", stepUp: true },
      schema: {
        tags: ["account"],
        summary: "Remove one of your passkeys (step-up)",
        description:
          "409 SECOND_FACTOR_REQUIRED when it is your last second factor and the settings " +
          "require one of you. The recovery codes go with the last factor.",
        params: idParamsSchema,
        response: {
          204: z.undefined().describe("Removed"),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const admin = currentAdmin(request);
      await removeFactor(
        request,
        "Passkey",
        "account.passkey_removed",
        async (tx) =>
          (
            await tx
              .delete(adminPasskeys)
              .where(
                and(eq(adminPasskeys.id, request.params.id), eq(adminPasskeys.adminId, admin.id)),
              )
              .returning({ id: adminPasskeys.id })
          ).length > 0,
      );
      return reply.status(204).send();
    },
  );

  app.post(
    "/api/account/factors/totp",
    {
      config: { access: "session", enrolment: true, stepUp: true },
      schema: {
        tags: ["account"],
        summary: "Start enrolling an authenticator app: its secret, as a QR code and as text",
        description:
          "Confirm it with a code (POST /api/account/factors/totp/confirm) for it to count. " +
          "409 TOTP_ENROLLED while one is confirmed (remove it first). Step-up.",
        response: { 200: totpEnrolmentSchema, ...errorResponses(401, 403, 409) },
      },
    },
    async (request) => {
      const admin = currentAdmin(request);
      const secret = newTotpSecret();
      const sealed = totpSecrets.seal(secret, totpContext(admin.id));
      const [kept] = await db
        .insert(adminTotp)
        .values({ adminId: admin.id, secret: sealed })
        .onConflictDoUpdate({
          target: adminTotp.adminId,
          set: { secret: sealed, lastStep: null, createdAt: new Date() },
          setWhere: isNull(adminTotp.confirmedAt),
        })
        .returning({ secret: adminTotp.secret });
      if (!kept) {
        throw conflict("TOTP_ENROLLED", "An authenticator app is enrolled: remove it first");
      }
      const uri = totpUri(secret, admin.email);
      const qrCode = `data:image/svg+xml;base64,${Buffer.from(
        await QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" }),
      ).toString("base64")}`;
      return { secret, uri, qrCode };
    },
  );

  app.post(
    "/api/account/factors/totp/confirm",
    {
      config: { access: "session", enrolment: true },
      schema: {
        tags: ["account"],
        summary:
          "Confirm the authenticator app with a code it shows: answered with ten recovery codes",
        description:
          "400 TOTP_CODE_FORMAT, 400 WRONG_CODE; 409 TOTP_NOT_STARTED without an enrolment " +
          "under way. The recovery codes are shown this once.",
        body: totpConfirmBodySchema,
        response: { 200: recoveryCodesSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request) => {
      const admin = currentAdmin(request);
      const code = totpCodeOf(request.body.code);
      const [pending] = await db
        .select({ secret: adminTotp.secret })
        .from(adminTotp)
        .where(and(eq(adminTotp.adminId, admin.id), isNull(adminTotp.confirmedAt)));
      if (!pending) {
        throw conflict("TOTP_NOT_STARTED", "No authenticator app is being enrolled");
      }
      const step = stepOf(totpSecrets.open(pending.secret, totpContext(admin.id)), code);
      if (step === null) throw wrongCode();
      const recoveryCodes = await db.transaction(async (tx) => {
        if (!(await claimStep(tx, admin.id, step))) throw wrongCode();
        await tx
          .update(adminTotp)
          .set({ confirmedAt: new Date() })
          .where(eq(adminTotp.adminId, admin.id));
        const codes = await newRecoveryCodes(tx, admin.id);
        await factorConfirmed(tx, request, "totp");
        await recordAudit(tx, audit(admin.id, "account.totp_enrolled", `from ${request.ip}`));
        return codes;
      });
      return { recoveryCodes };
    },
  );

  app.delete(
    "/api/account/factors/totp",
    {
      config: { access: "session", stepUp: true },
      schema: {
        tags: ["account"],
        summary: "Remove the authenticator app (step-up)",
        description:
          "409 SECOND_FACTOR_REQUIRED when it is your last second factor and the settings " +
          "require one of you. The recovery codes go with the last factor.",
        response: { 204: z.undefined().describe("Removed"), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const admin = currentAdmin(request);
      await removeFactor(
        request,
        "Authenticator app",
        "account.totp_removed",
        async (tx) =>
          (
            await tx
              .delete(adminTotp)
              .where(eq(adminTotp.adminId, admin.id))
              .returning({ confirmedAt: adminTotp.confirmedAt })
          )[0]?.confirmedAt != null,
      );
      return reply.status(204).send();
    },
  );

  app.post(
    "/api/account/factors/recovery-codes",
    {
      config: { access: "session", stepUp: true },
      schema: {
        tags: ["account"],
        summary: "Ten new recovery codes; the old ones stop working (step-up)",
        description:
          "409 NO_SECOND_FACTOR: recovery codes go with a passkey or an authenticator app.",
        response: { 200: recoveryCodesSchema, ...errorResponses(401, 403, 409) },
      },
    },
    async (request) => {
      const admin = currentAdmin(request);
      if (!(await hasSecondFactor(db, admin.id))) {
        throw conflict("NO_SECOND_FACTOR", "Set up a passkey or an authenticator app first");
      }
      const recoveryCodes = await db.transaction(async (tx) => {
        const codes = await newRecoveryCodes(tx, admin.id);
        await recordAudit(tx, audit(admin.id, "account.recovery_codes", `from ${request.ip}`));
        return codes;
      });
      return { recoveryCodes };
    },
  );

  app.get(
    "/api/account/sessions",
    {
      config: { access: "session" },
      schema: {
        tags: ["account"],
        summary: "The signed-in administrator's open sessions, most recently used first",
        response: { 200: sessionListSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const rows = await sessions.active(db, currentAdmin(request).id);
      return { data: rows.map((row) => sessionDto(row, request.session?.jti)) };
    },
  );

  app.delete(
    "/api/account/sessions/:id",
    {
      config: { access: "session" },
      schema: {
        tags: ["account"],
        summary: "End one of your sessions (this one too: that is a logout)",
        params: sessionIdParams,
        response: { 204: z.undefined().describe("Ended"), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const admin = currentAdmin(request);
      await db.transaction(async (tx) => {
        if (!(await sessions.end(tx, admin.id, request.params.id, "ended"))) {
          throw notFound("Session");
        }
        await recordAudit(tx, audit(admin.id, "auth.session_ended", `from ${request.ip}`));
      });
      return reply.status(204).send();
    },
  );

  app.post(
    "/api/account/sessions/end-others",
    {
      config: { access: "session" },
      schema: {
        tags: ["account"],
        summary: "End every session of yours but this one",
        response: { 200: endedSessionsSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const admin = currentAdmin(request);
      const ended = await db.transaction(async (tx) => {
        const count = await sessions.endAll(tx, admin.id, "ended", request.session!.jti);
        await recordAudit(
          tx,
          audit(admin.id, "auth.sessions_ended", `${count} other sessions, from ${request.ip}`),
        );
        return count;
      });
      return { ended };
    },
  );
};
