import { PERMISSION } from "../../../src/shared/permissions";
import { errorResponses, idParamsSchema } from "../../../src/shared/schemas/common";
import { auditListSchema, auditQuerySchema } from "../../../src/shared/schemas/user-actions";
import { listUserAudit } from "./user-audit";
import type { ModuleEndpoints } from "../../kit/bind";

const access = (thing: string) => ({ permission: PERMISSION.user, thing });
const tags = ["users"];

/** A user's history (ban, VIP and URL are the users declaration's actions, bound in ./index.ts). */
export const userActionEndpoints: ModuleEndpoints = async (app, { db }) => {
  app.get(
    "/api/users/:id/audit",
    {
      config: { access: access("User History") },
      schema: {
        tags,
        summary: "The audit entries about one user, newest first, with the acting admin's name",
        params: idParamsSchema,
        querystring: auditQuerySchema,
        response: { 200: auditListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => listUserAudit(db, request.params.id, request.query),
  );
};
