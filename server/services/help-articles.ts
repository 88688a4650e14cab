import { and, asc, desc, eq, gt, lt, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";

import { ADMIN_LANGUAGES } from "../../src/shared/domain";
import {
  HELP_CATEGORIES,
  helpArticleMoveBody,
  helpArticles,
  publicHelpArticles,
  type HelpArticleBody,
} from "../../src/shared/modules/help-articles";
import { errorResponses, idParamsSchema } from "../../src/shared/schemas/common";
import { currentAdmin } from "../auth/access";
import { bodyTextError, hasContent, sanitizeBody } from "../content/sanitize";
import { publicCaching, sendWithEtag } from "../content/public-cache";
import type { Db, Tx } from "../db";
import { helpArticles as articles } from "../db/schema";
import { HttpError, conflict } from "../errors";
import { adminNameOf, bindModule, changeRecord, type ActionHandler } from "../kit/bind";
import type { RouteDeps } from "../routes/types";

/** 400 EMPTY_BODY naming the language whose body shows nothing once cleaned (only a script). */
const emptyBody = (language: string) =>
  new HttpError(
    400,
    `The ${language} body shows nothing once cleaned (only markup that is not allowed)`,
    "EMPTY_BODY",
    { language },
  );

/**
 * The two bodies as they may be stored: cleaned by the allow-list. A body that shows nothing
 * after cleaning (only a script, say) is refused, as an empty one is, and so is one holding a
 * bidirectional control, as a title is (bodyTextError).
 */
export function cleanBodies<B extends { bodyEn: string; bodyZh: string }>(body: B): B {
  const bodyEn = sanitizeBody(body.bodyEn);
  const bodyZh = sanitizeBody(body.bodyZh);
  const refusal = bodyTextError("bodyEn", bodyEn) ?? bodyTextError("bodyZh", bodyZh);
  if (refusal) throw refusal;
  if (!hasContent(bodyEn)) throw emptyBody("en-US");
  if (!hasContent(bodyZh)) throw emptyBody("cn-ZH");
  return { ...body, bodyEn, bodyZh };
}

/** The place after the last article of a category. */
async function nextPosition(tx: Tx, category: string): Promise<number> {
  const [row] = await tx
    .select({ last: sql<number | null>`max(${articles.position})` })
    .from(articles)
    .where(eq(articles.category, category as (typeof HELP_CATEGORIES)[number]));
  return (row?.last ?? 0) + 1;
}

/** A new article is a draft at the end of its category. */
async function createArticle(
  tx: Tx,
  { actor, body }: { actor: { id: number }; body: HelpArticleBody },
) {
  const clean = cleanBodies(body);
  const [row] = await tx
    .insert(articles)
    .values({
      ...clean,
      position: await nextPosition(tx, body.category),
      authorId: actor.id,
    })
    .returning({ id: articles.id });
  return row!.id;
}

/** Changes text and bodies; moved to another category, it goes to that category's end. */
const editArticle: ActionHandler<HelpArticleBody> = async (tx, { id, body, before }) => {
  const clean = cleanBodies(body);
  const moved = before.category !== body.category;
  await tx
    .update(articles)
    .set({ ...clean, ...(moved ? { position: await nextPosition(tx, body.category) } : {}) })
    .where(eq(articles.id, id));
};

export const helpArticlesModule = bindModule(helpArticles, {
  table: articles,
  columns: { authorName: adminNameOf(articles.authorId) },
  create: createArticle,
  edit: editArticle,
});

const access = (thing: string) => ({ permission: helpArticles.permission!, thing });
const tags = [helpArticles.name];

/** Swaps an article with its neighbour in its category (409 NO_NEIGHBOUR at either end). */
async function moveArticle(tx: Tx, id: number, direction: "up" | "down", category: string) {
  const [self] = await tx
    .select({ position: articles.position })
    .from(articles)
    .where(eq(articles.id, id));
  const position = self!.position;
  const [neighbour] = await tx
    .select({ id: articles.id, position: articles.position })
    .from(articles)
    .where(
      and(
        eq(articles.category, category as (typeof HELP_CATEGORIES)[number]),
        direction === "up" ? lt(articles.position, position) : gt(articles.position, position),
      ),
    )
    .orderBy(direction === "up" ? desc(articles.position) : asc(articles.position))
    .limit(1)
    .for("update");
  if (!neighbour) {
    throw conflict(
      "NO_NEIGHBOUR",
      `This help article is already the ${direction === "up" ? "first" : "last"} of its category`,
    );
  }
  await tx.update(articles).set({ position: neighbour.position }).where(eq(articles.id, id));
  await tx.update(articles).set({ position }).where(eq(articles.id, neighbour.id));
}

const languageQuery = z.strictObject({
  lang: z.enum(ADMIN_LANGUAGES).default("en-US").describe("en-US (default) or cn-ZH"),
});

/** The published articles in one language, by category (the help centre's order), then place. */
export async function publishedArticles(db: Db, language: (typeof ADMIN_LANGUAGES)[number]) {
  const english = language === "en-US";
  const rows = await db
    .select({
      id: articles.id,
      category: articles.category,
      position: articles.position,
      title: english ? articles.titleEn : articles.titleZh,
      body: english ? articles.bodyEn : articles.bodyZh,
      updatedAt: articles.updatedAt,
    })
    .from(articles)
    .where(eq(articles.status, "published"))
    .orderBy(
      sql`array_position(array[${sql.raw(HELP_CATEGORIES.map((c) => `'${c}'`).join(","))}]::text[], ${articles.category})`,
      asc(articles.position),
      asc(articles.id),
    );
  return {
    language,
    articles: rows.map((row) => ({ ...row, updatedAt: row.updatedAt.toISOString() })),
  };
}

/**
 * Publish, unpublish and move (audited through the kit's changeRecord, 409 when the article is
 * not in the state the change needs), and the wallet app's public read.
 */
export const helpArticleRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  const response = { 200: helpArticles.item, ...errorResponses(400, 401, 403, 404, 409) };
  for (const [verb, from, to] of [
    ["publish", "draft", "published"],
    ["unpublish", "published", "draft"],
  ] as const) {
    app.post(
      `/api/help-articles/:id/${verb}`,
      {
        config: { access: access(helpArticles.thing.one) },
        schema: {
          tags,
          summary: `${verb === "publish" ? "Publish a draft" : "Take back a published"} help article`,
          description: `409 ${verb === "publish" ? "ALREADY_PUBLISHED" : "NOT_PUBLISHED"} when it is not ${from}.`,
          params: idParamsSchema,
          response,
        },
      },
      async (request) =>
        db.transaction(
          async (tx) =>
            (await changeRecord(
              tx,
              helpArticlesModule,
              {
                actor: currentAdmin(request),
                id: request.params.id,
                audit: `help_article.${verb}`,
                remark: null,
                when: { status: [from] },
                conflictCode: verb === "publish" ? "ALREADY_PUBLISHED" : "NOT_PUBLISHED",
              },
              async () => {
                await tx
                  .update(articles)
                  .set({ status: to, publishedAt: to === "published" ? new Date() : null })
                  .where(eq(articles.id, request.params.id));
              },
            )) as never,
        ),
    );
  }

  app.post(
    "/api/help-articles/:id/move",
    {
      config: { access: access(helpArticles.thing.one) },
      schema: {
        tags,
        summary: "Move a help article one place up or down within its category",
        description: "409 NO_NEIGHBOUR when it is already first (up) or last (down).",
        params: idParamsSchema,
        body: helpArticleMoveBody,
        response,
      },
    },
    async (request) =>
      db.transaction(
        async (tx) =>
          (await changeRecord(
            tx,
            helpArticlesModule,
            {
              actor: currentAdmin(request),
              id: request.params.id,
              audit: `help_article.move_${request.body.direction}`,
              remark: null,
            },
            (before) =>
              moveArticle(tx, request.params.id, request.body.direction, String(before.category)),
          )) as never,
      ),
  );

  app.get(
    "/api/public/help-articles",
    {
      config: { access: "public" },
      schema: {
        tags: ["public"],
        summary: "The published help articles in one language, in order (no session; ETag)",
        description:
          "Ordered by category (top_up, payments, refunds, lost_card, parking, account), then by " +
          "place. Cacheable for a minute; send If-None-Match with the ETag to get 304.",
        security: [],
        querystring: languageQuery,
        response: { 200: publicHelpArticles, ...errorResponses(400) },
      },
      onSend: publicCaching,
    },
    async (request, reply) =>
      sendWithEtag(request, reply, await publishedArticles(db, request.query.lang)),
  );
};
