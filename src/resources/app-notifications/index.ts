import { lazy } from "react";

import { resourceOf } from "../../app/kit/resource";
import { appNotifications as appNotificationsModule } from "../../shared/modules/app-notifications";

/**
 * Announcement > App Notification (16): the generated list and detail page; the create screen
 * says "Send now" or "Schedule" by the send time and confirms with the number of recipients.
 */
export const appNotifications = resourceOf(appNotificationsModule, {
  create: lazy(() => import("./create")),
});
