import { notFound } from "../../errors";
import { errorResponses, idParamsSchema } from "../../../src/shared/schemas/common";
import { auditListSchema, auditQuerySchema } from "../../../src/shared/schemas/user-actions";
import { userDetailSchema } from "../../../src/shared/schemas/users";
import { findUserDetail } from "./records";
import { listUserAudit } from "./user-audit";
import type { ModuleEndpoints } from "../../kit/bind";
import { answerEtag } from "../../kit/versions";

/**
 * One user's detail and history (the list, and the actions on a user, are the declaration's);
 * each needs the module's User (0), named in refusals as `config.thing` says.
 */
export const userDetailEndpoints: ModuleEndpoints = async (app, { db, bound }) => {
  app.get(
    "/api/users/:id",
    {
      // Its ETag is the user's: the detail page's actions and the rider's edit send it back.
      config: { thing: "Single User", versions: { etag: true } },
      schema: {
        summary: "One user with their wallet and rider or agent facts",
        params: idParamsSchema,
        response: { 200: userDetailSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const user = await findUserDetail(db, request.params.id);
      if (!user) throw notFound("User");
      answerEtag(bound, reply, user.id, user);
      return user;
    },
  );

  app.get(
    "/api/users/:id/audit",
    {
      config: { thing: "User History" },
      schema: {
        summary: "The audit entries about one user, newest first, with the acting admin's name",
        params: idParamsSchema,
        querystring: auditQuerySchema,
        response: { 200: auditListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => listUserAudit(db, request.params.id, request.query),
  );
};
