import { eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";

import { recordAudit } from "../audit";
import { currentAdmin } from "../auth/access";
import { assertStrongPassword, hashPassword, verifyPassword } from "../auth/password";
import { administrators } from "../db/schema";
import { HttpError } from "../errors";
import {
  changePasswordBodySchema,
  updateAccountBodySchema,
} from "../../src/shared/schemas/account";
import { adminDtoSchema } from "../../src/shared/schemas/administrators";
import { errorResponses } from "../../src/shared/schemas/common";
import { adminAuditSnapshot, toAdminDto } from "../services/administrators";
import type { RouteDeps } from "../http/deps";

/** The signed-in administrator's own account: any valid session, no permission code. */
export const accountRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db, sessions }) => {
  const sessionErrors = errorResponses(400, 401, 403);

  app.get(
    "/api/account/admin",
    {
      config: { access: "session", enrolment: true },
      schema: {
        tags: ["account"],
        summary: "The current administrator",
        response: { 200: adminDtoSchema, ...sessionErrors },
      },
    },
    async (request) => toAdminDto(db, currentAdmin(request)),
  );

  app.patch(
    "/api/account/admin",
    {
      config: { access: "session", enrolment: true },
      schema: {
        tags: ["account"],
        summary: "Change the current administrator's name, language or theme",
        body: updateAccountBodySchema,
        response: { 200: adminDtoSchema, ...sessionErrors },
      },
    },
    async (request) => {
      const admin = currentAdmin(request);
      const set: Partial<Pick<typeof admin, "name" | "language" | "theme">> = {};
      if (request.body.name !== undefined && request.body.name !== admin.name) {
        set.name = request.body.name;
      }
      if (request.body.language !== undefined && request.body.language !== admin.language) {
        set.language = request.body.language;
      }
      if (request.body.theme !== undefined && request.body.theme !== admin.theme) {
        set.theme = request.body.theme;
      }
      if (Object.keys(set).length === 0) return toAdminDto(db, admin);
      const updated = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(administrators)
          .set(set)
          .where(eq(administrators.id, admin.id))
          .returning();
        if (!row) throw new HttpError(401, "User not found");
        await recordAudit(tx, {
          adminId: admin.id,
          action: "account.update",
          targetTable: "administrators",
          targetId: admin.id,
          before: adminAuditSnapshot(admin),
          after: adminAuditSnapshot(row),
        });
        return row;
      });
      return toAdminDto(db, updated);
    },
  );

  app.post(
    "/api/account/password",
    {
      config: { access: "session" },
      schema: {
        tags: ["account"],
        summary: "Change the current administrator's password",
        body: changePasswordBodySchema,
        response: {
          200: z
            .object({ token: z.string() })
            .describe("Password changed: older tokens no longer work, this one replaces them"),
          ...sessionErrors,
        },
      },
    },
    async (request, reply) => {
      const admin = currentAdmin(request);
      const { currentPassword, newPassword } = request.body;
      if (!(await verifyPassword(currentPassword, admin.passwordHash))) {
        throw new HttpError(400, "The current password is not correct", "WRONG_CURRENT_PASSWORD");
      }
      assertStrongPassword(newPassword);
      const passwordHash = await hashPassword(newPassword);
      // Every other session of this administrator ends; this one goes on with a fresh token.
      const credentialVersion = admin.credentialVersion + 1;
      const token = await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(administrators)
          .set({ passwordHash, credentialVersion })
          .where(eq(administrators.id, admin.id))
          .returning();
        await recordAudit(tx, {
          adminId: admin.id,
          action: "account.change_password",
          targetTable: "administrators",
          targetId: admin.id,
          remark: "password changed",
        });
        return sessions.open(tx, updated!, request, "password");
      });
      return reply.status(200).send({ token });
    },
  );
};
