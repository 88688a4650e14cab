import { and, desc, eq, gt, isNull, lte, or, sql } from "drizzle-orm";

import type { BUSINESS_CATEGORIES } from "../../../src/shared/domain";
import {
  merchantAnnouncements,
  type AnnouncementState,
  type MerchantAnnouncementBody,
} from "../../../src/shared/modules/merchant-announcements";
import type { Db, Tx } from "../../db";
import { merchantAnnouncements as announcements } from "../../db/schema";
import { toItem, type ActionHandler } from "../../kit/bind";
import { cleanBodies } from "../../content/sanitize";

/** The state as of the database's clock: before publish, until expiry, after. */
export const stateColumn = sql<AnnouncementState>`case
  when ${announcements.publishAt} > now() then 'scheduled'
  when ${announcements.expiresAt} is not null and ${announcements.expiresAt} <= now() then 'expired'
  else 'live' end`;

/** The row an announcement's body makes: cleaned bodies, the categories only for `categories`. */
function rowOf(body: MerchantAnnouncementBody) {
  const clean = cleanBodies(body);
  return {
    titleEn: clean.titleEn,
    titleZh: clean.titleZh,
    bodyEn: clean.bodyEn,
    bodyZh: clean.bodyZh,
    audience: body.audience,
    categories: body.audience === "categories" ? [...(body.categories ?? [])] : [],
    publishAt: new Date(body.publishAt),
    expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
    pinned: body.pinned ?? false,
  };
}

export async function createAnnouncement(
  tx: Tx,
  { actor, body }: { actor: { id: number }; body: MerchantAnnouncementBody },
) {
  const [row] = await tx
    .insert(announcements)
    .values({ ...rowOf(body), authorId: actor.id })
    .returning({ id: announcements.id });
  return row!.id;
}

/** The edit form sends the whole announcement: what it leaves out (an expiry) is cleared. */
export const editAnnouncement: ActionHandler<MerchantAnnouncementBody> = async (
  tx,
  { id, body },
) => {
  await tx.update(announcements).set(rowOf(body)).where(eq(announcements.id, id));
};

/** The live announcements (pinned first, newest first), for every merchant or one category. */
export async function liveAnnouncements(db: Db, category?: (typeof BUSINESS_CATEGORIES)[number]) {
  const now = sql`now()`;
  const rows = await db
    .select()
    .from(announcements)
    .where(
      and(
        lte(announcements.publishAt, now),
        or(isNull(announcements.expiresAt), gt(announcements.expiresAt, now)),
        category
          ? or(
              eq(announcements.audience, "all"),
              sql`${announcements.categories} @> ${JSON.stringify([category])}::jsonb`,
            )
          : undefined,
      ),
    )
    .orderBy(desc(announcements.pinned), desc(announcements.publishAt), desc(announcements.id));
  const item = merchantAnnouncements.item.omit({ authorId: true, authorName: true, state: true });
  return {
    announcements: rows.map((row) =>
      item.parse(
        toItem(merchantAnnouncements, { ...row, authorId: null, authorName: null, state: "live" }),
      ),
    ),
  };
}
