import { errorResponses } from "../../../src/shared/schemas/common";
import {
  mgmtUserPageSchema,
  roleListQuerySchema,
  searchBuyerQuerySchema,
  searchBuyerResponseSchema,
} from "../../../src/shared/schemas/user-mgmt";
import { ofRole, pageOfUsers, pendingOfRole, searchBuyers } from "./user-mgmt";
import type { ModuleEndpoints } from "../../kit/bind";

const tags = ["user-mgmt"];

/**
 * The /user-mgmt calls of the User (0) module; snake_case, as that contract names its fields.
 * `ban-user`, `set-vip-status` and `reset-user-password` are aliases of the users declaration's
 * actions (the kit registers them).
 */
export const userMgmtEndpoints: ModuleEndpoints = async (app, { db, bound }) => {
  // Two pages of users of one role: all of them, or those waiting for approval.
  for (const [path, thing, summary, which] of [
    ["get-user-list", "User List", "Users of one role", ofRole],
    ["pending-verify-user", "Pending Verify User", "Pending users of one role", pendingOfRole],
  ] as const) {
    app.get(
      `/user-mgmt/${path}`,
      {
        config: { thing },
        schema: {
          tags,
          summary: `${summary}, newest first, in pages of at most 100 (page, page_size)`,
          querystring: roleListQuerySchema,
          response: { 200: mgmtUserPageSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => pageOfUsers(db, which(request.query.role), request.query),
    );
  }

  app.get(
    "/user-mgmt/search-buyer",
    {
      config: { thing: "Search Buyer" },
      schema: {
        tags,
        summary: "At most 20 users whose name, e-mail, phone or account number contains the text",
        querystring: searchBuyerQuerySchema,
        response: { 200: searchBuyerResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({
      users: await searchBuyers(db, bound.collection, request.query.search),
    }),
  );
};
