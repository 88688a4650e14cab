import { z } from "zod";

import { defineModule, field, form, type ItemOf } from "../kit/module";
import { administratorLink, choice, instant, recordId, selfLink, text } from "../kit/presets";
import { isoDateTime } from "../kit/types";
import { PERMISSION } from "../permissions";
import { richBodySchema, titleSchema } from "./content";

/** The help centre's sections, in the order the wallet app shows them. */
export const HELP_CATEGORIES = [
  "top_up",
  "payments",
  "refunds",
  "lost_card",
  "parking",
  "account",
] as const;
export type HelpCategory = (typeof HELP_CATEGORIES)[number];
export const HELP_ARTICLE_STATUSES = ["draft", "published"] as const;
export type HelpArticleStatus = (typeof HELP_ARTICLE_STATUSES)[number];

/** A help article as the editor sends it: both languages at once. */
export const helpArticleBody = z
  .strictObject({
    category: z.enum(HELP_CATEGORIES),
    titleEn: titleSchema,
    titleZh: titleSchema,
    bodyEn: richBodySchema,
    bodyZh: richBodySchema,
  })
  .meta({ id: "HelpArticleBody" });
export type HelpArticleBody = z.infer<typeof helpArticleBody>;

/** `POST /api/help-articles/{id}/move`: one place up or down within its category. */
export const helpArticleMoveBody = z
  .strictObject({ direction: z.enum(["up", "down"]) })
  .meta({ id: "HelpArticleMoveBody" });
export type HelpArticleMoveBody = z.infer<typeof helpArticleMoveBody>;

const STATUS_TAGS = { draft: "grey", published: "green" } as const;
/** Create and edit are one form, drawn by the full-page editor (the bodies in rich text). */
const articleForm = form({
  body: helpArticleBody,
  audit: "help_article",
  inputs: { bodyEn: { kind: "richText" }, bodyZh: { kind: "richText" } },
});

/**
 * Content Management (12): the wallet app's help centre. Articles are written in both languages
 * in the full-page editor (the shell page `?id=create-edit-help-centre-editor`), kept in order
 * within their category, and published or taken back; the app reads the published ones from
 * `GET /api/public/help-articles`.
 */
export const helpArticles = defineModule({
  name: "help-articles",
  permission: PERMISSION.contentMgmt,
  thing: { one: "Help Article", many: "Help Articles" },
  i18n: "helpArticle",
  schemaId: "HelpArticle",
  paths: {
    list: "/content-mgmt",
    show: "/content-details",
    create: "/content-mgmt/create",
    edit: "/content-mgmt/:id/edit",
  },
  fields: {
    id: recordId(),
    category: choice(z.enum(HELP_CATEGORIES), { list: 130 }),
    position: field(z.number().int(), { list: { width: 80 }, show: true, sort: true }),
    titleEn: selfLink({ list: 260 }),
    titleZh: text({ list: 200, filter: true, search: true }),
    status: choice(z.enum(HELP_ARTICLE_STATUSES), { list: 110, colours: STATUS_TAGS }),
    bodyEn: field(z.string()),
    bodyZh: field(z.string()),
    ...administratorLink("authorId", "authorName", { list: 150, export: true }),
    publishedAt: instant({ nullable: true }),
    updatedAt: instant({ list: 160 }),
  },
  titleField: "titleEn",
  defaultSort: [
    ["category", "asc"],
    ["position", "asc"],
    ["id", "asc"],
  ],
  create: articleForm,
  edit: articleForm,
});

export type HelpArticleDto = ItemOf<typeof helpArticles>;

/** One published article as the wallet app reads it, in one language. */
export const publicHelpArticle = z
  .object({
    id: z.number().int(),
    category: z.enum(HELP_CATEGORIES),
    position: z.number().int(),
    title: z.string(),
    body: z.string(),
    updatedAt: isoDateTime,
  })
  .meta({ id: "PublicHelpArticle" });

export const publicHelpArticles = z
  .object({ language: z.string(), articles: z.array(publicHelpArticle) })
  .meta({ id: "PublicHelpArticles" });
