import { z } from "zod";

import { APP_NOTIFICATION_STATUSES, USER_ROLES } from "../domain";
import { defineModule, field, form, related, remarkAction, type ItemOf } from "../kit/module";
import {
  administratorLink,
  choice,
  count,
  instant,
  recordId,
  reviewFields,
  selfLink,
  text,
} from "../kit/presets";
import { isoDateTime } from "../kit/types";
import { PERMISSION } from "../permissions";
import { distinctItems } from "../schemas/rules";
import { safeMultilineText, safeText } from "../text";

/** A title as the app shows it in a notification banner (one line). */
export const NOTIFICATION_TITLE_MAX_LENGTH = 120;
/** A body: plain text, a few short paragraphs at most. */
export const NOTIFICATION_BODY_MAX_LENGTH = 2_000;

const title = (language: string) =>
  safeText()
    .trim()
    .min(1, `Title (${language}) is required`)
    .max(NOTIFICATION_TITLE_MAX_LENGTH, `Title (${language}) must be at most 120 characters`);
const body = (language: string) =>
  safeMultilineText()
    .trim()
    .min(1, `Body (${language}) is required`)
    .max(NOTIFICATION_BODY_MAX_LENGTH, `Body (${language}) must be at most 2000 characters`);

/** The user roles a notification goes to: one or more, each once. */
const audienceSchema = distinctItems(
  z
    .array(z.enum(USER_ROLES), "Audience must be a list of user roles")
    .min(1, "Choose at least one role")
    .max(USER_ROLES.length),
  "Each role at most once",
);

/** Who a notification to `audience` would reach now: the count the sender confirms. */
export const audienceCountBody = z
  .strictObject({ audience: audienceSchema })
  .meta({ id: "AudienceCountBody" });
export const audienceCountAnswer = z
  .object({ count: z.int().min(0).describe("Active users of those roles now") })
  .meta({ id: "AudienceCount" });

/**
 * A new notification: its words in both languages, the user roles it goes to, and when it is
 * sent (none: at once). A time in the past is refused by the server (SCHEDULE_IN_PAST), by its
 * own clock: the browser's may differ.
 */
export const appNotificationBody = z
  .strictObject({
    titleEn: title("English"),
    titleZh: title("Chinese"),
    bodyEn: body("English"),
    bodyZh: body("Chinese"),
    audience: audienceSchema,
    sendAt: isoDateTime.optional(),
  })
  .meta({ id: "AppNotificationBody" });
export type AppNotificationBody = z.infer<typeof appNotificationBody>;

/** How far in the past a send time may be and still mean "now" (a clock a little behind). */
export const SEND_AT_GRACE_SECONDS = 60;

const STATUS_TAGS = {
  scheduled: "blue",
  sending: "gold",
  sent: "green",
  cancelled: "grey",
} as const;

/** The users a sent notification reached, one inbox row each. */
export const notificationRecipients = related({
  path: "recipients",
  queryName: "recipients",
  i18n: "appNotificationRecipients",
  schemaId: "AppNotificationRecipient",
  fields: {
    id: recordId({ filter: false }),
    userId: field(z.number().int()),
    accountNumber: field(z.string(), {
      list: { width: 140 },
      filter: "text",
      display: { kind: "link", to: "users", idField: "userId" },
    }),
    userName: field(z.string(), { list: { width: 200 } }),
    role: field(z.enum(USER_ROLES), { list: { width: 110 }, filter: "choice" }),
    deliveredAt: instant({ list: 170, show: false, export: false }),
    readAt: field(isoDateTime.nullable(), {
      list: { width: 170 },
      display: { kind: "dateTime" },
      empty: "unread",
    }),
  },
  defaultSort: [["id", "asc"]],
});

/**
 * Announcement > App Notification (16): a message to the wallet app's users by role, sent at its
 * time by the job queue (server/jobs/queue.ts): one inbox row per matching active user, exactly
 * once. It may be cancelled until its delivery starts.
 */
export const appNotifications = defineModule({
  name: "app-notifications",
  permission: PERMISSION.announcement,
  thing: { one: "App Notification", many: "App Notifications" },
  i18n: "appNotification",
  schemaId: "AppNotification",
  paths: {
    list: "/app-notification",
    show: "/app-notification",
    create: "/app-notification/create",
  },
  fields: {
    id: recordId(),
    titleEn: selfLink({ list: 240, filter: false }),
    titleZh: text({ list: 200, filter: true, search: true }),
    bodyEn: text(),
    bodyZh: text(),
    audience: field(z.array(z.enum(USER_ROLES)), {
      list: { width: 180 },
      show: true,
      export: true,
    }),
    status: choice(z.enum(APP_NOTIFICATION_STATUSES), { list: 110, colours: STATUS_TAGS }),
    sendAt: instant({ list: 170 }),
    recipientCount: count({ list: 110 }),
    sentAt: instant({ nullable: true }),
    ...administratorLink("createdBy", "createdByName"),
    ...reviewFields(),
    createdAt: instant(),
  },
  titleField: "titleEn",
  defaultSort: [
    ["createdAt", "desc"],
    ["id", "desc"],
  ],
  related: { recipients: notificationRecipients },
  // Its page follows the delivery: scheduled, then sending, then sent with its recipients.
  live: { field: "status", values: ["scheduled", "sending"] },
  actions: {
    // Its verb is not "cancel": the kit's dialogs already word their own Cancel button so.
    cancel: remarkAction({
      verb: "withdraw",
      path: "cancel",
      done: "withdrawn",
      when: { status: ["scheduled"] },
      conflictCode: "NOTIFICATION_NOT_CANCELLABLE",
      danger: true,
      audit: "app_notification",
    }),
  },
  create: form({
    body: appNotificationBody,
    audit: "app_notification",
    inputs: { bodyEn: { kind: "multiline" }, bodyZh: { kind: "multiline" } },
  }),
});

export type AppNotificationDto = ItemOf<typeof appNotifications>;
