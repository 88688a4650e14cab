import { z } from "zod";

import { BUSINESS_CATEGORIES } from "../domain";
import { defineModule, field, form, type ItemOf } from "../kit/module";
import { administratorLink, choice, instant, recordId, selfLink, text } from "../kit/presets";
import { isoDateTime } from "../kit/types";
import { VERSION_FIELD } from "../kit/versions";
import { PERMISSION } from "../permissions";
import { alternativesRule, crossFieldRule, distinctItems } from "../schemas/rules";
import { richBodySchema, titleSchema } from "./content";

export const ANNOUNCEMENT_AUDIENCES = ["all", "categories"] as const;
/** Derived from the dates, never stored: before publish, until expiry, after. */
export const ANNOUNCEMENT_STATES = ["scheduled", "live", "expired"] as const;
export type AnnouncementState = (typeof ANNOUNCEMENT_STATES)[number];

/**
 * An announcement as staff write it. The audience is every merchant, or the merchants of the
 * chosen business categories (at least one); it expires after it is published, if ever.
 */
export const merchantAnnouncementBody = crossFieldRule(
  alternativesRule(
    z.strictObject({
      titleEn: titleSchema,
      titleZh: titleSchema,
      bodyEn: richBodySchema,
      bodyZh: richBodySchema,
      audience: z.enum(ANNOUNCEMENT_AUDIENCES),
      categories: distinctItems(
        z.array(z.enum(BUSINESS_CATEGORIES)).max(BUSINESS_CATEGORIES.length),
        "Categories repeat",
      ).optional(),
      publishAt: isoDateTime,
      expiresAt: isoDateTime.optional(),
      pinned: z.boolean().optional(),
    }),
    // audience "categories" needs at least one category
    [
      {
        properties: {
          audience: {
            enum: ANNOUNCEMENT_AUDIENCES.filter((audience) => audience !== "categories"),
          },
        },
      },
      { required: ["categories"], properties: { categories: { minItems: 1 } } },
    ],
    (body, context) => {
      if (body.audience === "categories" && (body.categories ?? []).length === 0) {
        context.addIssue({
          code: "custom",
          path: ["categories"],
          message: "Choose at least one category",
          params: { rule: "categoriesRequired" },
        });
      }
    },
  ),
  { fields: ["expiresAt", "publishAt"], rule: "expiresAt, when given, is after publishAt" },
  (body, context) => {
    if (body.expiresAt && Date.parse(body.expiresAt) <= Date.parse(body.publishAt)) {
      context.addIssue({
        code: "custom",
        path: ["expiresAt"],
        message: "Expiry must be after the publish date",
        params: { rule: "afterPublish", other: "publishAt" },
      });
    }
  },
).meta({ id: "MerchantAnnouncementBody" });
export type MerchantAnnouncementBody = z.infer<typeof merchantAnnouncementBody>;

/** Create and edit are one form: the whole announcement, bodies in the rich-text editor. */
const announcementForm = form({
  body: merchantAnnouncementBody,
  audit: "merchant_announcement",
  inputs: {
    bodyEn: { kind: "richText" },
    bodyZh: { kind: "richText" },
    publishAt: { kind: "dateTime" },
    expiresAt: { kind: "dateTime" },
  },
});

const STATE_TAGS = { scheduled: "blue", live: "green", expired: "grey" } as const;

/** Announcement > Merchant Announcement (16): news for merchants in their app. */
export const merchantAnnouncements = defineModule({
  name: "merchant-announcements",
  permission: PERMISSION.announcement,
  thing: { one: "Merchant Announcement", many: "Merchant Announcements" },
  i18n: "merchantAnnouncement",
  schemaId: "MerchantAnnouncement",
  paths: {
    list: "/merchant-announcement",
    show: "/merchant-announcement",
    create: "/merchant-announcement/create",
    edit: "/merchant-announcement/:id/edit",
  },
  fields: {
    id: recordId(),
    titleEn: selfLink({ list: 240 }),
    titleZh: text({ list: 180, search: true }),
    bodyEn: field(z.string()),
    bodyZh: field(z.string()),
    state: choice(z.enum(ANNOUNCEMENT_STATES), { list: 110, sort: false, colours: STATE_TAGS }),
    audience: choice(z.enum(ANNOUNCEMENT_AUDIENCES), { list: 120, sort: false }),
    categories: field(z.array(z.enum(BUSINESS_CATEGORIES))),
    pinned: field(z.boolean(), {
      list: { width: 90 },
      show: true,
      filter: "boolean",
      export: true,
      display: { kind: "yesNo" },
    }),
    publishAt: instant({ list: 160 }),
    expiresAt: instant({ nullable: true, list: 160, empty: "never" }),
    ...administratorLink("authorId", "authorName"),
    updatedAt: instant({ filter: false, export: false }),
  },
  titleField: "titleEn",
  defaultSort: [
    ["publishAt", "desc"],
    ["id", "desc"],
  ],
  create: announcementForm,
  edit: announcementForm,
});

export type MerchantAnnouncementDto = ItemOf<typeof merchantAnnouncements>;

/** A live announcement as the merchant app reads it. */
export const publicMerchantAnnouncements = z
  .object({
    announcements: z.array(
      // Staff's facts (who wrote it, its state, its version) are not the apps'. The version is
      // the kit's own field, not in the declaration's static type.
      merchantAnnouncements.item.omit({
        authorId: true,
        authorName: true,
        state: true,
        ...({ [VERSION_FIELD]: true } as Record<never, never>),
      }),
    ),
  })
  .meta({ id: "PublicMerchantAnnouncements" });
