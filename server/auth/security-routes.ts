/**
 * An administrator's own second factors and sessions (/api/account/factors, /api/account/sessions):
 * enrolling an authenticator app (a QR code and its secret as text, confirmed with a code),
 * recovery codes (ten, shown once), and the sessions still open, any of which they can end.
 * Changing a factor is sensitive: it needs a fresh proof (step-up) like a money action.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import QRCode from "qrcode";
import { z } from "zod";

import {
  endedSessionsSchema,
  factorsSchema,
  recoveryCodesSchema,
  sessionListSchema,
  totpConfirmBodySchema,
  totpEnrolmentSchema,
} from "../../src/shared/schemas/auth";
import { errorResponses } from "../../src/shared/schemas/common";
import { recordAudit } from "../audit";
import { secondFactorRequiredOf } from "../../src/shared/global-settings";
import { adminRecoveryCodes, adminSessions, adminTotp, type AdminSessionRow } from "../db/schema";
import { readGlobalSettings } from "../services/global-settings";
import { conflict, HttpError, notFound } from "../errors";
import type { RouteDeps } from "../http/deps";
import { currentAdmin } from "./access";
import {
  claimStep,
  factorsOf,
  newRecoveryCodes,
  newTotpSecret,
  stepOf,
  totpCodeOf,
  totpUri,
} from "./factors";
import { WRONG_CODE } from "./routes";

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
  const { db, sessions } = deps;
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
      return { ...factors, totpSince: factors.totpSince?.toISOString() ?? null };
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
      const [kept] = await db
        .insert(adminTotp)
        .values({ adminId: admin.id, secret })
        .onConflictDoUpdate({
          target: adminTotp.adminId,
          set: { secret, lastStep: null, createdAt: new Date() },
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
      const step = stepOf(pending.secret, code);
      if (step === null) throw new HttpError(400, "The code is not right", WRONG_CODE);
      const recoveryCodes = await db.transaction(async (tx) => {
        if (!(await claimStep(tx, admin.id, step))) {
          throw new HttpError(400, "The code is not right", WRONG_CODE);
        }
        await tx
          .update(adminTotp)
          .set({ confirmedAt: new Date() })
          .where(eq(adminTotp.adminId, admin.id));
        const codes = await newRecoveryCodes(tx, admin.id);
        // The code just typed is a proof of its own, and the administrator's sessions that
        // waited for a second factor serve everything now.
        await sessions.verified(tx, request.session!.jti, "totp");
        await tx
          .update(adminSessions)
          .set({ mustEnrol: false })
          .where(eq(adminSessions.adminId, admin.id));
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
        summary: "Remove the authenticator app and the recovery codes (step-up)",
        description:
          "409 SECOND_FACTOR_REQUIRED when the settings require one of this administrator.",
        response: { 204: z.undefined().describe("Removed"), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const admin = currentAdmin(request);
      if (secondFactorRequiredOf(await readGlobalSettings(db), admin)) {
        throw conflict(
          "SECOND_FACTOR_REQUIRED",
          "A second factor is required for your account: it cannot be removed",
        );
      }
      await db.transaction(async (tx) => {
        const removed = await tx
          .delete(adminTotp)
          .where(eq(adminTotp.adminId, admin.id))
          .returning({ confirmedAt: adminTotp.confirmedAt });
        if (!removed[0]?.confirmedAt) throw notFound("Authenticator app");
        await tx.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, admin.id));
        await recordAudit(tx, audit(admin.id, "account.totp_removed", `from ${request.ip}`));
      });
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
        description: "409 TOTP_NOT_ENROLLED: recovery codes go with an authenticator app.",
        response: { 200: recoveryCodesSchema, ...errorResponses(401, 403, 409) },
      },
    },
    async (request) => {
      const admin = currentAdmin(request);
      const { totpSince } = await factorsOf(db, admin.id);
      if (!totpSince) {
        throw conflict("TOTP_NOT_ENROLLED", "Enrol an authenticator app first");
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
