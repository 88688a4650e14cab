import { PERMISSION } from "../../../src/shared/permissions";
import { notFound } from "../../errors";
import { errorResponses, idParamsSchema } from "../../../src/shared/schemas/common";
import { userDetailSchema } from "../../../src/shared/schemas/users";
import { findUserDetail } from "./records";
import type { ModuleEndpoints } from "../../kit/bind";

const access = (thing: string) => ({ permission: PERMISSION.user, thing });
const tags = ["users"];

/** The User (0) module's user list and detail; the actions on a user join them here. */
export const userDetailEndpoints: ModuleEndpoints = async (app, { db }) => {
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
