import { and, asc, desc, eq, gt, lt, sql } from "drizzle-orm";

import type { ADMIN_LANGUAGES } from "../../../src/shared/domain";
import { HELP_CATEGORIES, type HelpArticleBody } from "../../../src/shared/modules/help-articles";
import { cleanBodies } from "../../content/sanitize";
import type { Db, Tx } from "../../db";
import { helpArticles as articles, type AdministratorRow } from "../../db/schema";
import { conflict } from "../../errors";
import type { ActionHandler, BoundModule } from "../../kit/bind";
import { changeRecord } from "../../kit/change";
import type { RequestedVersion } from "../../kit/versions";

/** The place after the last article of a category. */
async function nextPosition(tx: Tx, category: string): Promise<number> {
  const [row] = await tx
    .select({ last: sql<number | null>`max(${articles.position})` })
    .from(articles)
    .where(eq(articles.category, category as (typeof HELP_CATEGORIES)[number]));
  return (row?.last ?? 0) + 1;
}

/** A new article is a draft at the end of its category. */
export async function createArticle(
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
export const editArticle: ActionHandler<HelpArticleBody> = async (tx, { id, body, before }) => {
  const clean = cleanBodies(body);
  const moved = before.category !== body.category;
  await tx
    .update(articles)
    .set({ ...clean, ...(moved ? { position: await nextPosition(tx, body.category) } : {}) })
    .where(eq(articles.id, id));
};

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

/** What publishing and unpublishing need and make of an article's status, and their 409's code. */
export const STATUS_CHANGES = {
  publish: { from: "draft", to: "published", conflictCode: "ALREADY_PUBLISHED" },
  unpublish: { from: "published", to: "draft", conflictCode: "NOT_PUBLISHED" },
} as const;

/**
 * Publishes a draft or takes back a published article, audited through the kit's changeRecord
 * (409 with the change's code when the article is not in the status the change needs).
 */
export function changeArticleStatus(
  db: Db,
  bound: BoundModule,
  actor: AdministratorRow,
  id: number,
  verb: keyof typeof STATUS_CHANGES,
  versioned?: RequestedVersion,
) {
  const { from, to, conflictCode } = STATUS_CHANGES[verb];
  return db.transaction((tx) =>
    changeRecord(
      tx,
      bound,
      {
        actor,
        id,
        audit: `help_article.${verb}`,
        remark: null,
        when: { status: [from] },
        conflictCode,
        ...versioned,
      },
      async () => {
        await tx
          .update(articles)
          .set({ status: to, publishedAt: to === "published" ? new Date() : null })
          .where(eq(articles.id, id));
      },
    ),
  );
}

/** Moves an article one place up or down within its category, audited (409 NO_NEIGHBOUR). */
export function moveArticleWithin(
  db: Db,
  bound: BoundModule,
  actor: AdministratorRow,
  id: number,
  direction: "up" | "down",
  versioned?: RequestedVersion,
) {
  return db.transaction((tx) =>
    changeRecord(
      tx,
      bound,
      { actor, id, audit: `help_article.move_${direction}`, remark: null, ...versioned },
      (before) => moveArticle(tx, id, direction, String(before.category)),
    ),
  );
}
