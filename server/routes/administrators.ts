import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

import { PERMISSION } from "../../src/shared/permissions";
import type { CollectionSpec } from "../aggregation";
import { registerAggregationRoute } from "../aggregation/route";
import { currentAdmin } from "../auth/access";
import { administrators, ADMIN_STATUSES, type AdministratorRow } from "../db/schema";
import { notFound } from "../errors";
import {
  adminDtoSchema,
  changeAdminPermissionBodySchema,
  checkEmailAvailableBodySchema,
  checkEmailAvailableResponseSchema,
  createAdministratorBodySchema,
  updateAdministratorBodySchema,
} from "../schemas/administrators";
import { errorResponses, idParamsSchema } from "../schemas/common";
import {
  createAdministrator,
  findAdministrator,
  isEmailAvailable,
  toAdminDto,
  updateAdministrator,
} from "../services/administrators";
import type { RouteDeps } from "./types";

/** What the administrators list lets clients filter, sort and search (INTERFACES.md). */
export const administratorsCollection: CollectionSpec = {
  queryName: "administrators",
  fields: {
    id: { column: administrators.id, type: "number", filterable: true, sortable: true },
    name: {
      column: administrators.name,
      type: "string",
      filterable: true,
      sortable: true,
      searchable: true,
    },
    email: {
      column: administrators.email,
      type: "string",
      filterable: true,
      sortable: true,
      searchable: true,
    },
    status: {
      column: administrators.status,
      type: "enum",
      values: ADMIN_STATUSES,
      filterable: true,
      sortable: true,
    },
    isSuperAdmin: { column: administrators.isSuperAdmin, type: "boolean", filterable: true },
    createdAt: { column: administrators.createdAt, type: "date", filterable: true, sortable: true },
    lastLoginAt: {
      column: administrators.lastLoginAt,
      type: "date",
      filterable: true,
      sortable: true,
    },
  },
  defaultSort: [
    ["createdAt", -1],
    ["id", -1],
  ],
  tieBreaker: administrators.id,
};

const access = (thing: string) => ({ permission: PERMISSION.admin, thing });
const tags = ["administrators"];

/** The Admin (8) module: the administrators list, detail, create, edit and permission editor. */
export const administratorsRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  registerAggregationRoute(app, db, {
    path: "/api/administrators/aggregation",
    access: access("Administrators"),
    collection: administratorsCollection,
    table: administrators,
    item: adminDtoSchema,
    toItem: (row: AdministratorRow) => toAdminDto(row),
    tags,
    summary: "List administrators (filter, sort, pagination as in the aggregation contract)",
  });

  app.get(
    "/api/administrators/:id",
    {
      config: { access: access("Single Administrator") },
      schema: {
        tags,
        summary: "One administrator",
        params: idParamsSchema,
        response: { 200: adminDtoSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const admin = await findAdministrator(db, request.params.id);
      if (!admin) throw notFound("Administrator");
      return toAdminDto(admin);
    },
  );

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
