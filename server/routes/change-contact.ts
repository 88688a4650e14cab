import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

import { PERMISSION } from "../../src/shared/permissions";
import { aggregationPreValidation, aggregationQuerystring } from "../aggregation";
import { currentAdmin } from "../auth/access";
import { changeContactListSchema, changeContactSubmissionSchema } from "../schemas/change-contact";
import { errorResponses, idParamsSchema } from "../schemas/common";
import { decisionBodySchema } from "../schemas/user-actions";
import { decideChangeContact, listChangeContactSubmissions } from "../services/change-contact";
import type { RouteDeps } from "./types";

const access = (thing: string) => ({ permission: PERMISSION.user, thing });
const tags = ["change-contact"];

/**
 * Users' requests to change their e-mail or phone. The list joins the user, so it has its own
 * handler over the shared compiler rather than registerAggregationRoute (one table only).
 */
export const changeContactRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.get(
    "/api/change-contact-submissions",
    {
      config: { access: access("Change Contact Submissions") },
      preValidation: aggregationPreValidation,
      schema: {
        tags,
        summary:
          "List change-contact submissions (aggregation contract; filter status, contactType, " +
          "createdAt, …; $search over old/new value, user name and account number)",
        querystring: aggregationQuerystring,
        response: { 200: changeContactListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => listChangeContactSubmissions(db, request.query),
  );

  app.patch(
    "/api/change-contact-submissions/:id",
    {
      config: { access: access("Change Contact Submission") },
      schema: {
        tags,
        summary: "Approve (the user's contact changes) or reject a pending submission",
        description:
          "409 ALREADY_DECIDED when not pending; 409 EMAIL_TAKEN when approving an e-mail " +
          "another user already has (case-insensitive).",
        params: idParamsSchema,
        body: decisionBodySchema,
        response: {
          200: changeContactSubmissionSchema,
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) =>
      decideChangeContact(db, currentAdmin(request), request.params.id, request.body),
  );
};
