import { z } from "zod";

import { BUSINESS_CATEGORIES } from "../../../src/shared/domain";
import {
  merchantAnnouncements,
  publicMerchantAnnouncements,
} from "../../../src/shared/modules/merchant-announcements";
import type { ModuleEndpoints } from "../../kit/bind";
import { registerPublicContent } from "../../services/public-content";
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
  await registerPublicContent(app, db, merchantAnnouncements, {
    url: "/api/public/merchant-announcements",
    summary: "The live merchant announcements, pinned first",
    description: "Live: published and not expired, by the server's clock.",
    querystring: publicQuery,
    answer: publicMerchantAnnouncements,
    load: (query) => liveAnnouncements(db, query.category),
  });
};
