import { ModuleShow } from "../../app/kit/generated-show";
import { merchantAnnouncements } from "../../shared/modules/merchant-announcements";
import { BodyPreviews } from "../content/previews";

/** An announcement: its facts, its audience, its preview in both languages and its history. */
export default function MerchantAnnouncementShow() {
  return <ModuleShow module={merchantAnnouncements} after={(row) => <BodyPreviews row={row} />} />;
}
