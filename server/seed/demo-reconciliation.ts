/**
 * The demo campus's reconciliation (docs/reconciliation.md): its last 90 business days
 * reconciled by the real checks, as the close-of-day job would have, with one planted and
 * explained difference. The counter's roll-up of one day (20 days ago) counted a RM 50.00 top-up
 * the till sent twice: the top-ups check finds the counter channel RM 50.00 above the ledger,
 * and Finance marked the day investigated (approved by a second administrator). A second red day
 * (4 days ago, the card channel's roll-up one top-up short: the card processor's file came late)
 * is still open: the dashboard shows it.
 *
 * The planted faults are in the roll-ups only while the days are reconciled: the roll-ups are
 * then put back as the ledger has them (the till's double was rebuilt away, the late file
 * arrived), so the campus's statistics stay true, and running the open day again turns it green.
 */
import { eq, sql } from "drizzle-orm";

import { recordAudit } from "../audit";

import { addDays, businessDayOf, businessTimeZone } from "../business-day";
import type { Tx } from "../db";
import { administrators } from "../db/schema";
import { firstLedgerDay, reconcileChecks } from "../services/reconciliation";

export const DEMO_RECONCILED_DAYS = 90;
/** How many days ago the planted, investigated difference is, and the open one. */
export const DEMO_RED_DAY_AGO = 20;
export const DEMO_OPEN_RED_DAY_AGO = 4;

const HOUR = 3_600_000;

/** Adds `count` top-ups of `sen` to the roll-up of `day`'s `channel` (a planted difference). */
const plantRollUp = (day: string, channel: string, count: number, sen: number) => sql`
  insert into top_up_days (day, channel, shard, top_ups, top_up_sen)
  values (${day}::date, ${channel}, 0, ${count}, ${sen})
  on conflict (day, channel, shard) do update
  set top_ups = top_up_days.top_ups + excluded.top_ups,
      top_up_sen = top_up_days.top_up_sen + excluded.top_up_sen`;

/** The roll-up row a plant changes, as it was. */
const rollUpRow = (day: string, channel: string) => sql<{ top_ups: string; top_up_sen: string }>`
  select top_ups, top_up_sen from top_up_days
  where day = ${day}::date and channel = ${channel} and shard = 0`;

export async function seedDemoReconciliation(
  tx: Tx,
  emails: { finance: string; checker: string },
  now: number,
): Promise<number> {
  const idOf = async (email: string) =>
    (
      await tx
        .select({ id: administrators.id })
        .from(administrators)
        .where(eq(administrators.email, email))
    )[0]?.id ?? null;
  const people = { finance: await idOf(emails.finance), checker: await idOf(emails.checker) };
  const today = businessDayOf(new Date(now));
  const firstDay = await firstLedgerDay(tx);
  if (firstDay === undefined) return 0;
  const redDay = addDays(today, -DEMO_RED_DAY_AGO);
  const openRedDay = addDays(today, -DEMO_OPEN_RED_DAY_AGO);
  const planted = [
    { day: redDay, channel: "counter", count: 1, sen: 5000 },
    { day: openRedDay, channel: "card", count: -1, sen: -2000 },
  ];
  const before = [];
  for (const plant of planted) {
    before.push((await tx.execute(rollUpRow(plant.day, plant.channel))).rows[0]);
    await tx.execute(plantRollUp(plant.day, plant.channel, plant.count, plant.sen));
  }
  let day = addDays(today, -DEMO_RECONCILED_DAYS);
  if (day < firstDay) day = firstDay;
  // What moved after each day, from one read of the ledger by day (not a read per day).
  const { rows: moved } = await tx.execute<{ day: string; sen: string }>(sql`
    select (created_at at time zone ${businessTimeZone()})::date::text as day,
           sum(amount_sen) as sen
    from wallet_transactions where status in ('success', 'reversed') group by 1`);
  const movedOn = new Map(moved.map((row) => [row.day, Number(row.sen)]));
  let movedSinceSen = [...movedOn]
    .filter(([on]) => on >= day)
    .reduce((sum, [, sen]) => sum + sen, 0);
  let done = 0;
  for (; day < today; day = addDays(day, 1)) {
    movedSinceSen -= movedOn.get(day) ?? 0;
    const result = await reconcileChecks(tx, day, { movedSinceSen });
    const ranAt = new Date(Date.parse(`${addDays(day, 1)}T00:00:00Z`) + 17 * HOUR);
    const investigated = day === redDay && result.status === "failed";
    const remark =
      "The counter's till sent one RM 50.00 top-up twice; the roll-up counted both, the ledger " +
      "and the wallet hold it once (checked against the till slip). The roll-up was rebuilt " +
      "from the ledger the next morning: no money moved.";
    const { rows } = await tx.execute<{ id: number }>(sql`
      insert into reconciliation_days (day, status, checks, closing_float_sen, failed_checks,
        ran_at, investigated_by, investigated_at, investigation_remark, created_at, updated_at)
      values (${day}::date, ${result.status}, ${JSON.stringify(result.checks)}::jsonb,
              ${result.closingFloatSen}, ${result.failedChecks},
              ${ranAt.toISOString()}::timestamptz,
              ${investigated ? people.finance : null},
              ${investigated ? new Date(ranAt.getTime() + 5 * HOUR).toISOString() : null}::timestamptz,
              ${investigated ? remark : null},
              ${ranAt.toISOString()}::timestamptz, ${ranAt.toISOString()}::timestamptz)
      on conflict (day) do nothing
      returning id`);
    if (investigated && rows[0]) {
      await recordAudit(tx, {
        adminId: people.finance,
        action: "reconciliation.investigate",
        targetTable: "reconciliation_days",
        targetId: rows[0].id,
        remark,
        before: { status: "failed" },
        after: { status: "investigated" },
        approvedBy: people.checker,
      });
    }
    done += 1;
  }
  for (const [i, plant] of planted.entries()) {
    const row = before[i];
    await tx.execute(
      row
        ? sql`update top_up_days set top_ups = ${row.top_ups}, top_up_sen = ${row.top_up_sen}
              where day = ${plant.day}::date and channel = ${plant.channel} and shard = 0`
        : sql`delete from top_up_days
              where day = ${plant.day}::date and channel = ${plant.channel} and shard = 0`,
    );
  }
  return done;
}
