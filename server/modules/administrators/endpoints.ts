import {
  checkEmailAvailableBodySchema,
  checkEmailAvailableResponseSchema,
} from "../../../src/shared/schemas/administrators";
import { errorResponses } from "../../../src/shared/schemas/common";
import type { ModuleEndpoints } from "../../kit/bind";
import { isEmailAvailable } from "./rules";

/**
 * The Admin (8) module's route beside the kit's list, record, forms and actions: the e-mail check
 * of the create and edit forms. It needs Admin (8), the module's; it is tagged "administrators".
 */
export const administratorEndpoints: ModuleEndpoints = async (app, { db }) => {
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
