import { eq, sql } from "drizzle-orm";

import type { RemarkBody } from "../../../src/shared/kit/module";
import {
  appNotifications,
  audienceCountAnswer,
  audienceCountBody,
  SEND_AT_GRACE_SECONDS,
  type AppNotificationBody,
} from "../../../src/shared/modules/app-notifications";
import { errorResponses } from "../../../src/shared/schemas/common";
import { recordAudit } from "../../audit";
import type { Tx } from "../../db";
import {
  appNotifications as notifications,
  userNotifications as inbox,
  users,
} from "../../db/schema";
import { HttpError } from "../../errors";
import { dropJob, enqueueJob, type JobHandler } from "../../jobs/queue";
import { adminNameOf, bindModule, type ActionContext } from "../../kit/bind";

/** The queue of notification deliveries, one job per notification. */
export const DELIVERY_QUEUE = "app-notification-delivery";
const jobKey = (id: number) => `app-notification:${id}`;

/**
 * Who a notification reaches: users of its roles whose account is active, that is approved and
 * not banned, at the time of delivery.
 */
const activeUserOf = (audience: readonly string[]) =>
  sql`${users.role} = any(${`{${audience.join(",")}}`}::text[])
    and ${users.approvalStatus} = 'approved' and not ${users.isBanned}`;

async function createNotification(
  tx: Tx,
  { actor, body }: { actor: { id: number }; body: AppNotificationBody },
): Promise<number> {
  const now = Date.now();
  const sendAt = new Date(body.sendAt ?? now);
  if (sendAt.getTime() < now - SEND_AT_GRACE_SECONDS * 1000) {
    throw new HttpError(400, "The send time is in the past", "SCHEDULE_IN_PAST", {
      sendAt: body.sendAt,
    });
  }
  const [row] = await tx
    .insert(notifications)
    .values({
      titleEn: body.titleEn,
      titleZh: body.titleZh,
      bodyEn: body.bodyEn,
      bodyZh: body.bodyZh,
      audience: body.audience,
      sendAt,
      createdBy: actor.id,
    })
    .returning({ id: notifications.id });
  // Committed with the notification, or not at all: no notification is ever left unscheduled.
  await enqueueJob(tx, {
    queue: DELIVERY_QUEUE,
    key: jobKey(row!.id),
    payload: { notificationId: row!.id },
    runAt: sendAt,
  });
  return row!.id;
}

/** Cancelling is possible while it waits for its time (the kit has checked `scheduled`). */
async function cancelNotification(tx: Tx, { actor, id, body }: ActionContext<RemarkBody>) {
  await tx
    .update(notifications)
    .set({ status: "cancelled", remark: body.remark, reviewerId: actor.id, reviewedAt: sql`now()` })
    .where(eq(notifications.id, id));
  // A step holding the job right now finds the notification cancelled and ends it.
  await dropJob(tx, jobKey(id));
}

export interface DeliveryOptions {
  /** At most this many users per step (one transaction each). */
  batchSize: number;
  /**
   * How long a step should take (ms): the step's size follows the database's speed, so that a
   * console request waiting for the connection (the embedded store has one) waits about this.
   */
  stepMs?: number;
}

/** The smallest step, and the first one (it grows or shrinks by at most half or double). */
const MIN_BATCH = 500;
const FIRST_BATCH = 1000;

/**
 * The delivery job: each step locks the notification, writes the inbox rows of the next
 * `batchSize` matching users after the last one covered, and moves the cursor and the count on,
 * in one transaction. The unique key (notification, user) makes a row impossible to write twice,
 * whatever happens to the process; the cursor makes a restarted delivery continue, not restart.
 */
export function deliveryJob({ batchSize: maxBatch, stepMs = 25 }: DeliveryOptions): JobHandler {
  let batchSize = Math.min(FIRST_BATCH, maxBatch);
  return {
    queue: DELIVERY_QUEUE,
    async step(tx, payload) {
      const started = performance.now();
      const { notificationId } = payload as { notificationId: number };
      const [notification] = await tx
        .select()
        .from(notifications)
        .where(eq(notifications.id, notificationId))
        .for("update");
      if (!notification || notification.status === "cancelled" || notification.status === "sent") {
        return { done: true };
      }
      const result = await tx.execute<{ picked: number; last: number | null; inserted: number }>(
        sql`with picked as (
            select ${users.id} as id from ${users}
            where ${users.id} > ${notification.deliveredThrough}
              and ${activeUserOf(notification.audience)}
            order by ${users.id}
            limit ${batchSize}),
          written as (
            insert into ${inbox} (notification_id, user_id)
            select ${notificationId}, id from picked
            on conflict (notification_id, user_id) do nothing
            returning 1)
          select (select count(*)::int from picked) as picked,
            (select max(id) from picked) as last,
            (select count(*)::int from written) as inserted`,
      );
      const { picked, last, inserted } = result.rows[0]!;
      const done = picked < batchSize;
      // The next step's size, from this one's pace (a restarted delivery starts small again).
      const pace = stepMs / Math.max(performance.now() - started, 1);
      batchSize = Math.round(
        Math.min(
          maxBatch,
          Math.max(Math.min(MIN_BATCH, maxBatch), batchSize * Math.min(2, Math.max(0.5, pace))),
        ),
      );
      await tx
        .update(notifications)
        .set({
          status: done ? "sent" : "sending",
          recipientCount: sql`${notifications.recipientCount} + ${inserted}`,
          deliveredThrough: last ?? notification.deliveredThrough,
          ...(done ? { sentAt: sql`now()` } : {}),
        })
        .where(eq(notifications.id, notificationId));
      if (done) {
        await recordAudit(tx, {
          adminId: null,
          action: "app_notification.sent",
          targetTable: "app_notifications",
          targetId: notificationId,
          before: { status: notification.status },
          after: { status: "sent", recipientCount: notification.recipientCount + inserted },
        });
      }
      return {
        done,
        details: done
          ? { notificationId, recipients: notification.recipientCount + inserted }
          : undefined,
      };
    },
  };
}

/** The notifications, newest first, with who wrote them; a sent one lists its recipients. */
export const appNotificationsModule = bindModule(appNotifications, {
  table: notifications,
  columns: {
    createdByName: adminNameOf(notifications.createdBy),
    reviewerName: adminNameOf(notifications.reviewerId),
  },
  actions: { cancel: cancelNotification },
  create: createNotification,
  endpoints: async (app, { db }) => {
    app.post(
      "/api/app-notifications/audience-count",
      {
        config: { thing: "App Notification Audience" },
        schema: {
          summary: "How many active users a notification to these roles would reach now",
          description:
            "Approved, not banned users of the roles, counted now; a scheduled notification " +
            "reaches those active when it is sent. Changes nothing.",
          body: audienceCountBody,
          response: { 200: audienceCountAnswer, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => {
        const [row] = await db
          .select({ count: sql<number>`count(*)::int` })
          .from(users)
          .where(activeUserOf(request.body.audience));
        return { count: row?.count ?? 0 };
      },
    );
  },
  related: {
    recipients: {
      table: inbox,
      joins: [{ table: users, on: eq(users.id, inbox.userId), exactlyOne: true }],
      parent: inbox.notificationId,
      columns: {
        accountNumber: users.accountNumber,
        userName: users.name,
        role: users.role,
        deliveredAt: inbox.createdAt,
      },
    },
  },
});
