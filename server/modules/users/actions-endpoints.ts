import { PERMISSION } from "../../../src/shared/permissions";
import { currentAdmin } from "../../auth/access";
import { errorResponses, idParamsSchema } from "../../../src/shared/schemas/common";
import {
  auditListSchema,
  auditQuerySchema,
  banBodySchema,
  urlBodySchema,
} from "../../../src/shared/schemas/user-actions";
import { userDtoSchema } from "../../../src/shared/schemas/users";
import { listUserAudit } from "./user-audit";
import { banChange, changeUser, urlChange } from "../../services/user-actions";
import { toUserDto } from "./records";
import type { ModuleEndpoints } from "../../kit/bind";

const access = (thing: string) => ({ permission: PERMISSION.user, thing });
const tags = ["users"];

/** The actions staff take on one user. */
export const userActionEndpoints: ModuleEndpoints = async (app, { db }) => {
  app.patch(
    "/api/users/:id/ban",
    {
      config: { access: access("User Ban") },
      schema: {
        tags,
        summary: "Ban or unban a user",
        description:
          "A remark is required when banning. 409 ALREADY_IN_STATE when the user already is.",
        params: idParamsSchema,
        body: banBodySchema,
        response: { 200: userDtoSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { ban, remark } = request.body;
      const user = await changeUser(
        db,
        currentAdmin(request),
        { id: request.params.id },
        banChange(ban, remark),
      );
      return toUserDto(user);
    },
  );

  app.patch(
    "/api/users/:id/url",
    {
      config: { access: access("User URL") },
      schema: {
        tags,
        summary: "Set (or clear, with null) a user's URL: http(s) only",
        params: idParamsSchema,
        body: urlBodySchema,
        response: { 200: userDtoSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const user = await changeUser(
        db,
        currentAdmin(request),
        { id: request.params.id },
        urlChange(request.body.url),
      );
      return toUserDto(user);
    },
  );

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
