/**
 * Demo app notifications (issue 13): some sent (with their inbox rows, some read), some scheduled
 * (their deliveries queued, so a running demo server really sends them when they fall due), and
 * one cancelled. Inbox rows are written by one INSERT … SELECT per notification: seeding stays fast.
 */
import { sql } from "drizzle-orm";

import type { UserRole } from "../../src/shared/domain";
import type { Tx } from "../db";
import { enqueueJob } from "../jobs/queue";
import { DELIVERY_QUEUE } from "../modules/app-notifications";
import { appNotifications, userNotifications, users } from "../db/schema";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface DemoNotification {
  titleEn: string;
  titleZh: string;
  bodyEn: string;
  bodyZh: string;
  audience: UserRole[];
  /** Hours from now: negative for those already sent. */
  at: number;
  state: "sent" | "scheduled" | "cancelled";
  /** Of its recipients, the share who have opened it (sent ones). */
  readShare?: number;
  cancelRemark?: string;
}

const NOTIFICATIONS: readonly DemoNotification[] = [
  {
    titleEn: "Welcome to UCSI Wallet",
    titleZh: "欢迎使用 UCSI 钱包",
    bodyEn:
      "Pay at every canteen and café on campus with your phone. Top up by FPX, card or at any agent.",
    bodyZh: "用手机即可在校园内所有食堂和咖啡馆付款。可通过 FPX、银行卡或任何代理充值。",
    audience: ["student", "staff", "public"],
    at: -40 * 24,
    state: "sent",
    readShare: 0.8,
  },
  {
    titleEn: "Scheduled maintenance on Sunday",
    titleZh: "周日系统维护",
    bodyEn:
      "The wallet will be unavailable on Sunday from 2 am to 4 am for maintenance. Top-ups made before then are safe.",
    bodyZh: "钱包将于周日凌晨 2 点至 4 点进行维护，期间暂停服务。此前的充值不受影响。",
    audience: ["student", "staff", "public", "merchant", "rider", "agent"],
    at: -12 * 24,
    state: "sent",
    readShare: 0.55,
  },
  {
    titleEn: "Settlement day moved",
    titleZh: "结算日调整",
    bodyEn:
      "Because of the public holiday, this week's settlement is paid on Thursday instead of Wednesday.",
    bodyZh: "因公共假期，本周结算款项将于周四（而非周三）支付。",
    audience: ["merchant"],
    at: -5 * 24,
    state: "sent",
    readShare: 0.9,
  },
  {
    titleEn: "Exam week: longer canteen hours",
    titleZh: "考试周：食堂延长营业时间",
    bodyEn: "Block C canteen stays open until midnight during exam week. Good luck!",
    bodyZh: "考试周期间 C 座食堂营业至午夜。祝考试顺利！",
    audience: ["student"],
    at: -2 * 24,
    state: "sent",
    readShare: 0.35,
  },
  {
    titleEn: "Parking rates from next month",
    titleZh: "下月起停车收费调整",
    bodyEn:
      "Hourly parking at the North car park becomes RM 1.50 from the 1st. Sessions already started keep their rate.",
    bodyZh: "自下月 1 日起，北停车场每小时收费调整为 1.50 令吉。已开始的停车不受影响。",
    audience: ["student", "staff", "public"],
    at: 2 * 24,
    state: "scheduled",
  },
  {
    titleEn: "Rider safety briefing",
    titleZh: "骑手安全简报",
    bodyEn:
      "All riders: a short safety briefing is held at the security office on Friday at 10 am.",
    bodyZh: "全体骑手：周五上午 10 点在保安室举行简短的安全简报会。",
    audience: ["rider"],
    at: 5 * 24,
    state: "scheduled",
  },
  {
    titleEn: "Agent commission statement ready",
    titleZh: "代理佣金结单已出",
    bodyEn: "Your commission statement for last month is ready in the agent app.",
    bodyZh: "上月佣金结单已可在代理应用中查看。",
    audience: ["agent"],
    at: 26,
    state: "scheduled",
  },
  {
    titleEn: "Free coffee Friday",
    titleZh: "周五免费咖啡",
    bodyEn: "Pay with the wallet at the Library Café on Friday and your coffee is on us.",
    bodyZh: "周五在图书馆咖啡馆用钱包付款，咖啡免费。",
    audience: ["student", "staff"],
    at: 3 * 24,
    state: "cancelled",
    cancelRemark: "The café cannot run the promotion this week; it moves to next month.",
  },
];

/** Seeds the demo notifications; `authorIds` are the administrators who wrote them. */
export async function seedDemoNotifications(tx: Tx, authorIds: number[], now: number) {
  for (const [index, demo] of NOTIFICATIONS.entries()) {
    const sendAt = new Date(now + demo.at * HOUR);
    const author = authorIds[index % Math.max(authorIds.length, 1)] ?? null;
    const createdAt = new Date(Math.min(sendAt.getTime(), now) - (1 + (index % 3)) * DAY);
    // Every active user of its roles got it a moment after its time; some have opened it since.
    const delivered = new Date(sendAt.getTime() + 2_000);
    const [row] = await tx
      .insert(appNotifications)
      .values({
        titleEn: demo.titleEn,
        titleZh: demo.titleZh,
        bodyEn: demo.bodyEn,
        bodyZh: demo.bodyZh,
        audience: demo.audience,
        sendAt,
        status: demo.state,
        createdBy: author,
        sentAt: demo.state === "sent" ? delivered : null,
        createdAt,
        updatedAt: createdAt,
        ...(demo.state === "cancelled"
          ? { remark: demo.cancelRemark, reviewerId: author, reviewedAt: new Date(now - HOUR) }
          : {}),
      })
      .returning({ id: appNotifications.id });
    const id = row!.id;
    if (demo.state === "scheduled") {
      await enqueueJob(tx, {
        queue: DELIVERY_QUEUE,
        key: `app-notification:${id}`,
        payload: { notificationId: id },
        runAt: sendAt,
      });
    }
    if (demo.state !== "sent") continue;
    const readShare = Math.round((demo.readShare ?? 0) * 100);
    const written = await tx.execute(sql`insert into ${userNotifications}
        (notification_id, user_id, created_at, read_at)
      select ${id}, ${users.id}, ${delivered},
        case when (${users.id} * 37 + ${index}) % 100 < ${readShare}
          then ${delivered}::timestamptz + ((${users.id} % 47) + 1) * interval '37 minutes' end
      from ${users}
      where ${users.role} = any(${`{${demo.audience.join(",")}}`}::text[])
        and ${users.approvalStatus} = 'approved' and not ${users.isBanned}
      order by ${users.id}`);
    await tx
      .update(appNotifications)
      .set({
        recipientCount: written.rowCount ?? 0,
        deliveredThrough: sql`coalesce((select max(user_id) from ${userNotifications}
          where notification_id = ${id}), 0)`,
      })
      .where(sql`${appNotifications.id} = ${id}`);
  }
}
