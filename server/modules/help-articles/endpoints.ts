import { z } from "zod";

import { ADMIN_LANGUAGES } from "../../../src/shared/domain";
import {
  helpArticleMoveBody,
  helpArticles,
  publicHelpArticles,
} from "../../../src/shared/modules/help-articles";
import { errorResponses, idParamsSchema } from "../../../src/shared/schemas/common";
import { currentAdmin } from "../../auth/access";
import type { ModuleEndpoints } from "../../kit/bind";
import { answerEtag, requestedVersion, versionsOf } from "../../kit/versions";
import { registerPublicContent } from "../../services/public-content";
import { changeArticleStatus, moveArticleWithin, publishedArticles, STATUS_CHANGES } from "./rules";

const tags = [helpArticles.name];

const languageQuery = z.strictObject({
  lang: z.enum(ADMIN_LANGUAGES).default("en-US").describe("en-US (default) or cn-ZH"),
});

/**
 * Publish, unpublish and move (audited through the kit's changeRecord, 409 when the article is
 * not in the state the change needs), the upload of an image for a body, and the wallet app's
 * public read.
 */
export const helpArticleEndpoints: ModuleEndpoints = async (app, { db, bound }) => {
  const response = { 200: helpArticles.item, ...errorResponses(400, 401, 403, 404, 409) };
  // Record versions (docs/versions.md): each change takes If-Match and answers the ETag.
  const versions = versionsOf(bound.module);
  for (const verb of ["publish", "unpublish"] as const) {
    const { from, conflictCode } = STATUS_CHANGES[verb];
    app.post(
      `/api/help-articles/:id/${verb}`,
      {
        config: { versions },
        schema: {
          tags,
          summary: `${verb === "publish" ? "Publish a draft" : "Take back a published"} help article`,
          description: `409 ${conflictCode} when it is not ${from}.`,
          params: idParamsSchema,
          response,
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const versioned = requestedVersion(bound, request, id);
        const item = await changeArticleStatus(
          db,
          bound,
          currentAdmin(request),
          id,
          verb,
          versioned,
        );
        answerEtag(bound, reply, id, item);
        return item as never;
      },
    );
  }

  app.post(
    "/api/help-articles/:id/move",
    {
      config: { versions },
      schema: {
        tags,
        summary: "Move a help article one place up or down within its category",
        description: "409 NO_NEIGHBOUR when it is already first (up) or last (down).",
        params: idParamsSchema,
        body: helpArticleMoveBody,
        response,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const versioned = requestedVersion(bound, request, id);
      const admin = currentAdmin(request);
      const item = await moveArticleWithin(db, bound, admin, id, request.body.direction, versioned);
      answerEtag(bound, reply, id, item);
      return item as never;
    },
  );

  await registerPublicContent(app, db, helpArticles, {
    url: "/api/public/help-articles",
    summary: "The published help articles in one language, in order",
    description:
      "Ordered by category (top_up, payments, refunds, lost_card, parking, account), then by " +
      "place.",
    querystring: languageQuery,
    answer: publicHelpArticles,
    load: (query) => publishedArticles(db, query.lang),
  });
};
