import { sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

import { PERMISSION } from "../../src/shared/permissions";
import type { CollectionSpec } from "../aggregation";
import { registerAggregationRoute } from "../aggregation/route";
import {
  APPROVAL_STATUSES,
  RIDER_VERIFICATION_STATUSES,
  riders,
  USER_ROLES,
  users,
  type UserRow,
} from "../db/schema";
import { notFound } from "../errors";
import { errorResponses, idParamsSchema } from "../schemas/common";
import { userDetailSchema, userDtoSchema } from "../schemas/users";
import { findUserDetail, toUserDto } from "../services/users";
import type { RouteDeps } from "./types";

/**
 * What the users list lets clients filter, sort and search. The default sort and the approval
 * status filter are served by users_created_at_idx and users_approval_status_created_at_idx;
 * `$search` by the trigram index on search_text (the four searchable fields in one column).
 */
export const usersCollection: CollectionSpec = {
  queryName: "users",
  fields: {
    id: { column: users.id, type: "number", filterable: true },
    accountNumber: {
      column: users.accountNumber,
      type: "string",
      filterable: true,
      sortable: true,
      searchable: true,
    },
    name: {
      column: users.name,
      type: "string",
      filterable: true,
      sortable: true,
      searchable: true,
    },
    email: { column: users.email, type: "string", filterable: true, searchable: true },
    phone: { column: users.phone, type: "string", filterable: true, searchable: true },
    role: {
      column: users.role,
      type: "enum",
      values: USER_ROLES,
      filterable: true,
      sortable: true,
    },
    approvalStatus: {
      column: users.approvalStatus,
      type: "enum",
      values: APPROVAL_STATUSES,
      filterable: true,
      sortable: true,
    },
    isBanned: { column: users.isBanned, type: "boolean", filterable: true },
    /** A rider's verification status (NULL for other roles), for "pending rider verifications". */
    riderVerification: {
      column: sql`(select ${riders.verificationStatus} from ${riders} where ${riders.userId} = ${users.id})`,
      type: "enum",
      values: RIDER_VERIFICATION_STATUSES,
      filterable: true,
    },
    isVip: { column: users.isVip, type: "boolean", filterable: true },
    createdAt: { column: users.createdAt, type: "date", filterable: true, sortable: true },
    lastActiveAt: { column: users.lastActiveAt, type: "date", filterable: true, sortable: true },
  },
  defaultSort: [
    ["createdAt", -1],
    ["id", -1],
  ],
  tieBreaker: users.id,
  searchColumn: users.searchText,
};

const access = (thing: string) => ({ permission: PERMISSION.user, thing });
const tags = ["users"];

/** The User (0) module's user list and detail; the actions on a user join them here. */
export const usersRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  registerAggregationRoute(app, db, {
    path: "/api/users/aggregation",
    access: access("Users"),
    collection: usersCollection,
    table: users,
    item: userDtoSchema,
    toItem: (row: UserRow) => toUserDto(row),
    tags,
    summary: "List users (filter, sort, pagination as in the aggregation contract)",
  });

  app.get(
    "/api/users/:id",
    {
      config: { access: access("Single User") },
      schema: {
        tags,
        summary: "One user with their wallet and rider or agent facts",
        params: idParamsSchema,
        response: { 200: userDetailSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const user = await findUserDetail(db, request.params.id);
      if (!user) throw notFound("User");
      return user;
    },
  );
};
