import { lazy } from "react";

import { resourceOf } from "../../app/kit/resource";
import { merchantAnnouncements as merchantAnnouncementsModule } from "../../shared/modules/merchant-announcements";

/**
 * Announcement > Merchant Announcement (16): the generated list, create and edit forms (the
 * bodies in the lazy rich-text editor), and a detail page with both languages' preview.
 */
export const merchantAnnouncements = resourceOf(merchantAnnouncementsModule, {
  show: lazy(() => import("./show")),
});
