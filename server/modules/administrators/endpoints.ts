import {
  checkEmailAvailableBodySchema,
  checkEmailAvailableResponseSchema,
} from "../../../src/shared/schemas/administrators";
import { sessionListSchema } from "../../../src/shared/schemas/auth";
import { errorResponses, idParamsSchema } from "../../../src/shared/schemas/common";
import { sessionDto } from "../../auth/security-routes";
import { notFound } from "../../errors";
import { findAdministrator } from "../../services/administrators";
import type { ModuleEndpoints } from "../../kit/bind";
import { isEmailAvailable } from "./rules";

/**
 * The Admin (8) module's routes beside the kit's list, record, forms and actions: the e-mail check
 * of the create and edit forms, and an administrator's open sessions. They need Admin (8), the
 * module's; they are tagged "administrators".
 */
export const administratorEndpoints: ModuleEndpoints = async (app, { db, sessions }) => {
  app.get(
    "/api/administrators/:id/sessions",
    {
      config: { thing: "Administrator Sessions" },
      schema: {
        summary: "An administrator's open sessions, most recently used first",
        params: idParamsSchema,
        response: { 200: sessionListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!(await findAdministrator(db, id))) throw notFound("Administrator");
      const rows = await sessions.active(db, id);
      return { data: rows.map((row) => sessionDto(row, request.session?.jti)) };
    },
  );

  app.post(
    "/user-mgmt/check-email-available",
    {
      config: { thing: "Check Email Available" },
      schema: {
        summary: "Whether an e-mail is free for an administrator (case-insensitive)",
        body: checkEmailAvailableBodySchema,
        response: { 200: checkEmailAvailableResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({
      available: await isEmailAvailable(db, request.body.email, request.body.exclude_id),
    }),
  );
};
