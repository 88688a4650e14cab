import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

import { PERMISSION } from "../../src/shared/permissions";
import { administrators as administratorsDeclaration } from "../../src/shared/modules/administrators";
import { bindModule } from "../kit/bind";
import { currentAdmin } from "../auth/access";
import { administrators } from "../db/schema";
import {
  adminDtoSchema,
  changeAdminPermissionBodySchema,
  checkEmailAvailableBodySchema,
  checkEmailAvailableResponseSchema,
  createAdministratorBodySchema,
  updateAdministratorBodySchema,
} from "../../src/shared/schemas/administrators";
import { errorResponses, idParamsSchema } from "../../src/shared/schemas/common";
import {
  createAdministrator,
  isEmailAvailable,
  toAdminDto,
  updateAdministrator,
} from "../services/administrators";
import type { RouteDeps } from "./types";

/** The administrators list and record, served by the kit from the declaration. */
export const administratorsModule = bindModule(administratorsDeclaration, {
  table: administrators,
});

const access = (thing: string) => ({ permission: PERMISSION.admin, thing });
const tags = ["administrators"];

/** The Admin (8) module: the administrators list, detail, create, edit and permission editor. */
export const administratorsRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.post(
    "/api/administrators",
    {
      config: { access: access("Administrator") },
      schema: {
        tags,
        summary: "Create an administrator",
        body: createAdministratorBodySchema,
        response: { 201: adminDtoSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const created = await createAdministrator(db, currentAdmin(request), request.body);
      return reply.status(201).send(toAdminDto(created));
    },
  );

  app.patch(
    "/api/administrators/:id",
    {
      config: { access: access("Administrator") },
      schema: {
        tags,
        summary: "Change an administrator (name, e-mail, password, permissions, status)",
        params: idParamsSchema,
        body: updateAdministratorBodySchema,
        response: { 200: adminDtoSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const updated = await updateAdministrator(
        db,
        currentAdmin(request),
        request.params.id,
        request.body,
      );
      return toAdminDto(updated);
    },
  );

  app.post(
    "/user-mgmt/check-email-available",
    {
      config: { access: access("Check Email Available") },
      schema: {
        tags,
        summary: "Whether an e-mail is free for an administrator (case-insensitive)",
        body: checkEmailAvailableBodySchema,
        response: { 200: checkEmailAvailableResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({
      available: await isEmailAvailable(db, request.body.email, request.body.exclude_id),
    }),
  );

  app.post(
    "/user-mgmt/change-admin-permission",
    {
      config: { access: access("Change Admin Permission") },
      schema: {
        tags,
        summary: "Replace an administrator's permission codes",
        body: changeAdminPermissionBodySchema,
        response: { 200: adminDtoSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const updated = await updateAdministrator(
        db,
        currentAdmin(request),
        request.body.admin_id,
        { permissions: request.body.permission_codes },
        "administrator.change_permissions",
      );
      return toAdminDto(updated);
    },
  );
};
