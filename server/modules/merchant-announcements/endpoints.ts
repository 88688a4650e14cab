import { z } from "zod";

import { BUSINESS_CATEGORIES } from "../../../src/shared/domain";
import {
  merchantAnnouncements,
  publicMerchantAnnouncements,
} from "../../../src/shared/modules/merchant-announcements";
import { errorResponses } from "../../../src/shared/schemas/common";
import { contentImageUpload } from "../../content/images";
import { publicCaching, sendWithEtag } from "../../content/public-cache";
import type { ModuleEndpoints } from "../../kit/bind";
import { liveAnnouncements } from "./rules";

const publicQuery = z.strictObject({
  category: z
    .enum(BUSINESS_CATEGORIES)
    .optional()
    .describe("Only those a merchant of this business category sees"),
});

/**
 * `GET /api/public/merchant-announcements`, the merchant app's read without a session, and the
 * upload of an image for a body.
 */
export const merchantAnnouncementEndpoints: ModuleEndpoints = async (app, { db }) => {
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

  await app.register(
    contentImageUpload({
      collection: merchantAnnouncements.collection,
      permission: merchantAnnouncements.permission!,
      thing: merchantAnnouncements.thing.one,
    }),
    { db },
  );
};
