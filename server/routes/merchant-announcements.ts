import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";

import { BUSINESS_CATEGORIES } from "../../src/shared/domain";
import { publicMerchantAnnouncements } from "../../src/shared/modules/merchant-announcements";
import { errorResponses } from "../../src/shared/schemas/common";
import { publicCaching, sendWithEtag } from "../content/public-cache";
import { liveAnnouncements } from "../services/merchant-announcements";
import type { RouteDeps } from "./types";

const publicQuery = z.strictObject({
  category: z
    .enum(BUSINESS_CATEGORIES)
    .optional()
    .describe("Only those a merchant of this business category sees"),
});

/** `GET /api/public/merchant-announcements`: the merchant app's read, without a session. */
export const merchantAnnouncementRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.get(
    "/api/public/merchant-announcements",
    {
      config: { access: "public" },
      schema: {
        tags: ["public"],
        summary: "The live merchant announcements, pinned first (no session; ETag)",
        description:
          "Live: published and not expired, by the server's clock. Cacheable for a minute; send " +
          "If-None-Match with the ETag to get 304.",
        security: [],
        querystring: publicQuery,
        response: { 200: publicMerchantAnnouncements, ...errorResponses(400) },
      },
      onSend: publicCaching,
    },
    async (request, reply) =>
      sendWithEtag(request, reply, await liveAnnouncements(db, request.query.category)),
  );
};
