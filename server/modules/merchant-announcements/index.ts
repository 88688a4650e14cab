/** Merchant announcements: the kit's list, record and forms, and the module's own routes. */
import { merchantAnnouncements } from "../../../src/shared/modules/merchant-announcements";
import { merchantAnnouncements as announcements } from "../../db/schema";
import { adminNameOf, bindModule } from "../../kit/bind";
import { merchantAnnouncementEndpoints } from "./endpoints";
import { createAnnouncement, editAnnouncement, stateColumn } from "./rules";

export const merchantAnnouncementsModule = bindModule(merchantAnnouncements, {
  table: announcements,
  columns: { state: stateColumn, authorName: adminNameOf(announcements.authorId) },
  create: createAnnouncement,
  edit: editAnnouncement,
  endpoints: merchantAnnouncementEndpoints,
});
