/**
 * Demo data of UCSI ID Management and User Report: students and staff with linked IDs (some
 * revoked, a few relinked), and reports of every type in every state, disputes about real
 * payments of the demo ledger (some resolved with a refund, as the console would). Seeded from
 * the same PRNG as the rest, after the money (server/seed/seed.ts).
 */
import { and, asc, eq, sql } from "drizzle-orm";

import { PERMISSION } from "../../src/shared/permissions";
import type { ReportStatus, ReportType } from "../../src/shared/modules/user-reports";
import { refundPayment } from "../services/ledger";
import type { Tx } from "../db";
import { createPrng } from "./demo-data";
import { administrators, ucsiIds, userReports, users, walletTransactions } from "../db/schema";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const REVOKE_REMARKS = [
  "Graduated: student record closed by the registry",
  "Staff contract ended",
  "Card reported lost; new ID to be issued",
  "Linked to the wrong account by mistake",
];

const SUBJECTS: Record<ReportType, Array<[string, string]>> = {
  transaction_dispute: [
    ["Charged twice for one meal", "The canteen till showed an error and I paid again."],
    ["Paid but the order was cancelled", "The stall closed before serving my order."],
    ["Wrong amount charged", "I was charged more than the price on the menu."],
  ],
  merchant_complaint: [
    ["Stall refuses wallet payments", "The stall owner asked for cash only at lunch time."],
    ["Rude service at the kiosk", "The staff shouted at students in the queue."],
  ],
  app_problem: [
    ["QR scanner does not open", "The camera screen stays black on my phone."],
    ["Balance not updated after top-up", "My FPX top-up took an hour to show."],
    ["Cannot log in after the update", "The app says my session expired every time."],
  ],
  other: [
    ["Request for a printed statement", "I need a statement of last month for my sponsor."],
    ["Suggestion: dark mode", "Please add a dark theme to the app."],
  ],
};

const NOTES: Record<"resolved" | "rejected", string[]> = {
  resolved: [
    "Checked with the merchant; the duplicate charge was refunded.",
    "Fixed in app version 2.4.1; the user confirmed.",
    "Explained the top-up timing; the balance is correct.",
  ],
  rejected: [
    "The payment was valid; the order was collected.",
    "Duplicate of an earlier report.",
    "Could not reproduce; no response from the user in 14 days.",
  ],
};

/** student IDs: the intake year and a serial; staff IDs: S and five digits. */
const studentIdOf = (serial: number) => `100${String(2_000_000 + serial * 37).padStart(7, "0")}`;
const staffIdOf = (serial: number) => `S${String(10_000 + serial * 13).padStart(5, "0")}`;

export async function seedDemoIdsAndReports(tx: Tx, now = Date.now()): Promise<void> {
  const prng = createPrng(20_261_114);
  const staff = await tx
    .select({ id: administrators.id })
    .from(administrators)
    .where(
      and(
        eq(administrators.status, "active"),
        sql`(${administrators.isSuperAdmin} or ${PERMISSION.report} = any(${administrators.permissions}))`,
      ),
    )
    .orderBy(asc(administrators.id));
  const linkers = await tx
    .select({ id: administrators.id })
    .from(administrators)
    .where(
      sql`${administrators.isSuperAdmin} or ${PERMISSION.ucsiIdMgmt} = any(${administrators.permissions})`,
    );
  const linker = () => prng.pick(linkers).id;

  // IDs: about 70% of approved students and staff; one in eight links later revoked.
  const people = await tx
    .select({ id: users.id, role: users.role, createdAt: users.createdAt })
    .from(users)
    .where(and(sql`${users.role} in ('student', 'staff')`, eq(users.approvalStatus, "approved")))
    .orderBy(asc(users.id));
  const links: Array<typeof ucsiIds.$inferInsert> = [];
  let serial = 0;
  for (const person of people) {
    if (!prng.chance(0.7)) continue;
    const type = person.role === "staff" ? "staff" : "student";
    const idOf = type === "staff" ? staffIdOf : studentIdOf;
    // Linked days after signing up, revoked weeks later: never after the seeding (a user may have
    // signed up yesterday).
    const linkedAt = new Date(
      Math.min(person.createdAt.getTime() + prng.int(1, 20) * DAY, now - 2 * HOUR),
    );
    serial += 1;
    if (prng.chance(0.12)) {
      const revokedAt = new Date(Math.min(linkedAt.getTime() + prng.int(5, 60) * DAY, now - HOUR));
      links.push({
        ucsiId: idOf(serial),
        type,
        userId: person.id,
        status: "revoked",
        linkedAt,
        linkedBy: linker(),
        revokedAt,
        revokedBy: linker(),
        remark: prng.pick(REVOKE_REMARKS),
      });
      if (!prng.chance(0.5)) continue;
      serial += 1;
      links.push({
        ucsiId: idOf(serial),
        type,
        userId: person.id,
        linkedAt: revokedAt,
        linkedBy: linker(),
      });
      continue;
    }
    links.push({ ucsiId: idOf(serial), type, userId: person.id, linkedAt, linkedBy: linker() });
  }
  if (links.length > 0) await tx.insert(ucsiIds).values(links);

  // Reports: 48, every type in every state; disputes about the reporter's own payments.
  const payments = await tx
    .select({
      id: walletTransactions.id,
      userId: walletTransactions.userId,
      businessId: walletTransactions.businessId,
      amountSen: walletTransactions.amountSen,
      createdAt: walletTransactions.createdAt,
    })
    .from(walletTransactions)
    .where(
      and(
        eq(walletTransactions.type, "payment"),
        eq(walletTransactions.status, "success"),
        // Not one the money's demo refunded in part already: a dispute's refund may take all.
        sql`not exists (select 1 from ${walletTransactions} as r where r.reverses_id = ${walletTransactions.id})`,
      ),
    )
    .orderBy(sql`${walletTransactions.createdAt} desc`)
    .limit(200);
  const reporters = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.approvalStatus, "approved"))
    .orderBy(asc(users.id))
    .limit(300);
  const statuses: ReportStatus[] = ["open", "in_progress", "resolved", "rejected"];
  const types = Object.keys(SUBJECTS) as ReportType[];
  let paymentIndex = 0;
  let resolvedDisputes = 0;
  for (let i = 0; i < 48; i += 1) {
    const type = types[i % types.length]!;
    const status = statuses[Math.floor(i / types.length) % statuses.length]!;
    const payment = type === "transaction_dispute" ? payments[paymentIndex++ * 3] : undefined;
    const [subject, description] = prng.pick(SUBJECTS[type]);
    const createdAt = payment
      ? new Date(Math.min(payment.createdAt.getTime() + prng.int(1, 30) * HOUR, now - HOUR))
      : new Date(now - prng.int(1, 80) * DAY - prng.int(0, 23) * HOUR);
    const closedAt = new Date(Math.min(createdAt.getTime() + prng.int(2, 72) * HOUR, now - 60_000));
    const assigneeId = status === "open" && prng.chance(0.5) ? null : prng.pick(staff).id;
    const closed = status === "resolved" || status === "rejected";
    const [report] = await tx
      .insert(userReports)
      .values({
        reporterId: payment?.userId ?? prng.pick(reporters).id,
        type,
        subject,
        description,
        paymentId: payment?.id ?? null,
        businessId: payment?.businessId ?? null,
        status,
        assigneeId,
        note: closed ? prng.pick(NOTES[status]) : null,
        closedAt: closed ? closedAt : null,
        closedBy: closed ? assigneeId : null,
        createdAt,
        updatedAt: closed ? closedAt : createdAt,
      })
      .returning({ id: userReports.id });
    // Two resolved disputes in three were settled with a refund: half, then all, of the payment.
    if (payment && status === "resolved" && (resolvedDisputes += 1) % 3 !== 0) {
      const refund = await refundPayment(tx, payment.id, {
        amountSen:
          resolvedDisputes % 3 === 2 ? -payment.amountSen : Math.ceil(-payment.amountSen / 2),
        remark: `RPT-${String(report!.id).padStart(6, "0")}: refund of a disputed payment`,
        adminId: assigneeId,
        at: closedAt,
      });
      await tx
        .update(userReports)
        .set({ refundId: refund.id })
        .where(eq(userReports.id, report!.id));
    }
  }
}
