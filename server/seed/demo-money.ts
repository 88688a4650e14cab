/**
 * The demo campus's money: merchants in every status, and 90 days of top-ups and payments up to
 * the moment of seeding, with a daily rhythm (breakfast, lunch, dinner), a weekly one (quiet
 * weekends, top-ups on Sundays and Mondays), some reversals, failed and pending FPX top-ups.
 * Every wallet's balance is the sum of its ledger: a wallet that held money before the window
 * opens with an `adjustment` row (the balance carried over from the previous system).
 */
import { sql } from "drizzle-orm";

import type { BusinessCategory, BusinessStatus, LedgerChannel } from "../../src/shared/domain";
import { feeOfPayment } from "../../src/shared/money";
import { createPrng, DEMO_SEED, type Prng } from "./demo-data";
import type { Tx } from "../db";
import { runSettlements } from "../modules/settlements/rules";
import { rebuildMerchantDays } from "../db/merchant-days";
import { businesses, businessUpdateRequests, walletTransactions } from "../db/schema";
import { seedDemoBusinessDocuments } from "./demo-business-documents";
import { linkLedgerRows } from "../integrity/ledger-chain";

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** The window of activity before the seed. */
export const DEMO_MONEY_DAYS = 90;
/** Campus time is UTC+8 (Asia/Kuala_Lumpur has no daylight saving). */
const CAMPUS_OFFSET = 8 * HOUR;
const INSERT_BATCH = 1000;

const BUSINESSES: ReadonlyArray<
  readonly [name: string, category: BusinessCategory, status: BusinessStatus, feeBp: number]
> = [
  ["Block A Canteen", "canteen", "approved", 150],
  ["Block C Food Court", "canteen", "approved", 150],
  ["Nasi Kandar Corner", "canteen", "approved", 180],
  ["Mak Cik Kitchen", "canteen", "approved", 120],
  ["Library Café", "cafe", "approved", 200],
  ["Bean There Coffee", "cafe", "approved", 220],
  ["Campus Bookshop", "bookshop", "approved", 250],
  ["Print & Bind Centre", "print_shop", "approved", 300],
  ["Quick Copy Kiosk", "print_shop", "suspended", 300],
  ["Fresh Fold Laundry", "laundry", "approved", 250],
  ["Hostel Mart", "convenience", "approved", 180],
  ["24/7 Mini Mart", "convenience", "approved", 180],
  ["Bubble Tea Stall", "cafe", "pending", 200],
  ["Phone Repair Booth", "other", "pending", 350],
  ["Vegetarian Delights", "canteen", "pending", 150],
  ["Night Market Snacks", "canteen", "rejected", 150],
];
const BANKS = ["Maybank", "CIMB Bank", "Public Bank", "RHB Bank", "Hong Leong Bank"] as const;

/** What a category's payments cost, in sen (low, high), and when they happen (campus hours). */
const SPENDING: Record<BusinessCategory, { sen: [number, number]; hours: number[] }> = {
  canteen: { sen: [450, 1500], hours: [8, 12, 12, 13, 13, 18, 19] },
  cafe: { sen: [500, 1800], hours: [9, 10, 15, 16] },
  bookshop: { sen: [1500, 12000], hours: [10, 14, 16] },
  print_shop: { sen: [50, 2500], hours: [9, 11, 15, 17] },
  laundry: { sen: [600, 1800], hours: [10, 18, 20] },
  convenience: { sen: [200, 3500], hours: [8, 17, 21, 22, 23] },
  other: { sen: [1000, 8000], hours: [11, 15] },
};

const TOP_UP_CHANNELS: ReadonlyArray<readonly [LedgerChannel, number]> = [
  ["fpx", 45],
  ["card", 20],
  ["agent", 20],
  ["counter", 15],
];

export interface MoneyHolder {
  id: number;
  accountNumber: string;
  createdAt: Date;
  /** The wallet may move: the user is approved, not banned, the wallet active and recently used. */
  active: boolean;
  /** What the wallet held before the window (the demo user's generated balance). */
  openingSen: number;
}

type LedgerInsert = typeof walletTransactions.$inferInsert;
/** A ledger row to be, with the index of the row it reverses or refunds (its id is drawn later). */
type Row = LedgerInsert & { amountSen: number; reversesIndex?: number };
type Shop = { id: number; category: BusinessCategory; status: BusinessStatus; feeRateBp: number };
type DayEvent =
  | { kind: "topUp"; at: number }
  | { kind: "payment"; at: number; shop: Shop }
  | { kind: "reversal"; at: number; of: number }
  | { kind: "refund"; at: number; of: number; sen: number };

/** The first policy's maximum balance (migration 0008): demo top-ups keep within it. */
const DEMO_MAX_BALANCE_SEN = 150_000;

function weighted<T>(prng: Prng, weights: ReadonlyArray<readonly [T, number]>): T {
  let roll = prng.next() * weights.reduce((sum, [, w]) => sum + w, 0);
  for (const [value, weight] of weights) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return weights[weights.length - 1]![0];
}

/** Inserts the demo merchants, owned by approved merchant users; their ids by status. */
async function insertBusinesses(
  tx: Tx,
  prng: Prng,
  ownerIds: number[],
  reviewerIds: number[],
  now: number,
) {
  if (ownerIds.length === 0) return [];
  const rows = BUSINESSES.map(([name, category, status, feeRateBp], i) => {
    const createdAt = new Date(now - (200 - i * 9) * DAY);
    const decided = status !== "pending";
    return {
      ownerUserId: ownerIds[i % ownerIds.length]!,
      name,
      registrationNumber: `${String(202_300_000_000 + prng.int(1_000, 999_999)).padStart(12, "0")}-${"ABCDEFGHJK"[i % 10]}`,
      category,
      status,
      feeRateBp,
      bankName: BANKS[i % BANKS.length]!,
      bankAccount: String(prng.int(100_000_000, 999_999_999)) + String(prng.int(100, 999)),
      remark:
        status === "rejected"
          ? "Business registration could not be verified"
          : status === "suspended"
            ? "Suspended pending a hygiene inspection"
            : null,
      reviewerId: decided ? (reviewerIds[i % Math.max(reviewerIds.length, 1)] ?? null) : null,
      reviewedAt: decided ? new Date(createdAt.getTime() + 2 * DAY) : null,
      createdAt,
      updatedAt: decided ? new Date(createdAt.getTime() + 2 * DAY) : createdAt,
    };
  });
  return tx.insert(businesses).values(rows).returning({
    id: businesses.id,
    name: businesses.name,
    category: businesses.category,
    status: businesses.status,
    feeRateBp: businesses.feeRateBp,
    registrationNumber: businesses.registrationNumber,
    bankName: businesses.bankName,
    bankAccount: businesses.bankAccount,
  });
}

type InsertedShop = Awaited<ReturnType<typeof insertBusinesses>>[number];

/**
 * Merchants' update requests in every state: waiting ones (a rename, a new bank, a new
 * registration), one the business has moved past (it was renamed since: approving is refused),
 * one from an older app naming a field businesses no longer have, and decided ones.
 */
async function insertUpdateRequests(
  tx: Tx,
  shops: InsertedShop[],
  reviewerIds: number[],
  now: number,
) {
  const shop = (name: string) => shops.find((s) => s.name === name);
  const reviewerId = reviewerIds[0] ?? null;
  type Request = typeof businessUpdateRequests.$inferInsert;
  const ask = (
    name: string,
    daysAgo: number,
    changes: Record<string, string>,
    previous: Partial<Record<string, string>>,
    decided?: { status: "approved" | "rejected"; remark: string },
  ): Request[] => {
    const business = shop(name);
    if (!business) return [];
    const current = business as unknown as Record<string, string>;
    const createdAt = new Date(now - daysAgo * DAY);
    const reviewedAt = decided ? new Date(createdAt.getTime() + DAY / 2) : null;
    return [
      {
        businessId: business.id,
        changes,
        // What the business held when asked: the given old values, else what it holds now.
        previous: Object.fromEntries(
          Object.keys(changes).map((key) => [key, previous[key] ?? current[key] ?? ""]),
        ),
        status: decided?.status ?? "pending",
        remark: decided?.remark ?? null,
        reviewerId: decided ? reviewerId : null,
        reviewedAt,
        createdAt,
        updatedAt: reviewedAt ?? createdAt,
      },
    ];
  };
  const rows = [
    ...ask("Block A Canteen", 2, { name: "Block A Canteen & Grill" }, {}),
    ...ask("Library Café", 1, { bankName: "CIMB Bank", bankAccount: "800412339027" }, {}),
    ...ask("Hostel Mart", 0.2, { registrationNumber: "202401057731-K" }, {}),
    ...ask("Campus Bookshop", 5, { name: "Campus Bookshop & Stationery", bankName: "Maybank" }, {}),
    // Renamed ten days ago by an approved request, after this one was sent under the old name.
    ...ask(
      "Bean There Coffee",
      12,
      { name: "Bean There Espresso Bar" },
      { name: "Bean There Café" },
    ),
    ...ask(
      "Bean There Coffee",
      10,
      { name: "Bean There Coffee" },
      { name: "Bean There Café" },
      { status: "approved", remark: "New signage checked on site" },
    ),
    // Sent by an older merchant app: opening hours are no longer part of a business.
    ...ask(
      "Fresh Fold Laundry",
      20,
      { openingHours: "08:00–22:00" },
      { openingHours: "09:00–21:00" },
    ),
    ...ask(
      "Print & Bind Centre",
      30,
      { bankAccount: shop("Print & Bind Centre")?.bankAccount ?? "" },
      { bankAccount: "512009981204" },
      { status: "approved", remark: "Bank letter verified" },
    ),
    ...ask(
      "Quick Copy Kiosk",
      15,
      { name: "Quick Copy & Print Express" },
      {},
      { status: "rejected", remark: "The name is too close to Print & Bind Centre's" },
    ),
    ...ask(
      "24/7 Mini Mart",
      40,
      { category: "canteen" },
      {},
      {
        status: "rejected",
        remark: "A mini mart sells no cooked food: it stays a convenience store",
      },
    ),
  ];
  if (rows.length > 0) await tx.insert(businessUpdateRequests).values(rows);
  return rows.length;
}

let referenceCounter = 0;
/** newReference's shape (a prefix, the day, 10 characters): here D and a counter. */
const reference = (prefix: string, at: number) =>
  `${prefix}${new Date(at).toISOString().slice(0, 10).replaceAll("-", "")}D${String(++referenceCounter).padStart(9, "0")}`;

/**
 * Seeds the merchants and the ledger, and sets every wallet's balance (and its owner's last
 * activity) from its ledger. `now` is the moment of seeding: the window ends there.
 */
export async function seedDemoMoney(
  tx: Tx,
  options: {
    holders: MoneyHolder[];
    merchantOwnerIds: number[];
    agentIds: number[];
    counterStaffIds: number[];
    now: number;
  },
): Promise<{ rows: number; businesses: number; updateRequests: number; settlements: number }> {
  const prng = createPrng(DEMO_SEED + 7);
  const refunds = createPrng(DEMO_SEED + 11);
  const { holders, agentIds, counterStaffIds, now } = options;
  const shops = await insertBusinesses(tx, prng, options.merchantOwnerIds, counterStaffIds, now);
  await seedDemoBusinessDocuments(tx);
  const updateRequests = await insertUpdateRequests(tx, shops, counterStaffIds, now);
  const open = shops.filter((shop) => shop.status === "approved" || shop.status === "suspended");
  const windowStart = now - DEMO_MONEY_DAYS * DAY;
  const suspendedSince = now - 12 * DAY;
  const rows: Row[] = [];
  referenceCounter = 0;

  for (const holder of holders) {
    let balance = 0;
    const push = (row: Omit<Row, "userId" | "balanceAfterSen" | "searchText">, counts = true) => {
      if (counts) balance += row.amountSen;
      rows.push({
        ...row,
        userId: holder.id,
        balanceAfterSen: balance,
        searchText: `${row.reference}\u001f${holder.accountNumber}`.toLowerCase(),
      });
      return rows.length - 1;
    };
    const start = Math.max(holder.createdAt.getTime(), windowStart);
    // Wallets in use carried little over; idle ones keep what they held (the dormant list's money).
    const openingSen = holder.active ? Math.min(holder.openingSen, 8000) : holder.openingSen;
    if (openingSen > 0) {
      push({
        type: "adjustment",
        amountSen: openingSen,
        status: "success",
        reference: reference("AJ", start),
        remark: "Balance carried over from the previous wallet system",
        createdAt: new Date(start),
      });
    }
    if (!holder.active || open.length === 0) continue;
    const appetite = 0.5 + prng.next(); // some spend twice as much as others
    const favourite = prng.pick(open);
    for (let dayStart = start - (start % DAY); dayStart < now; dayStart += DAY) {
      const weekday = new Date(dayStart + CAMPUS_OFFSET).getUTCDay();
      const weekend = weekday === 0 || weekday === 6;
      const at = (hour: number) => dayStart - CAMPUS_OFFSET + hour * HOUR + prng.int(0, HOUR - 1);
      const events: DayEvent[] = [];
      // Top up when running low, and more often on Sundays and Mondays.
      if (balance < 3000 || prng.chance(weekday <= 1 ? 0.12 : 0.04)) {
        events.push({ kind: "topUp", at: at(prng.int(7, 22)) });
      }
      const meals = weekend ? prng.int(0, 1) : Math.round(prng.int(0, 3) * appetite);
      for (let meal = 0; meal < meals; meal++) {
        const shop = prng.chance(0.5) ? favourite : prng.pick(open);
        events.push({ kind: "payment", at: at(prng.pick(SPENDING[shop.category].hours)), shop });
      }
      events.sort((a, b) => a.at - b.at);
      for (let i = 0; i < events.length; i++) {
        const event = events[i]!;
        if (event.at < start || event.at >= now) continue;
        if (event.kind === "payment") {
          const { shop } = event;
          if (shop.status === "suspended" && event.at >= suspendedSince) continue;
          const [low, high] = SPENDING[shop.category].sen;
          const amountSen = prng.int(low / 10, high / 10) * 10;
          if (amountSen > balance) continue;
          const index = push({
            type: "payment",
            amountSen: -amountSen,
            status: "success",
            businessId: shop.id,
            feeSen: feeOfPayment(amountSen, shop.feeRateBp),
            reference: reference("PY", event.at),
            createdAt: new Date(event.at),
          });
          // Now and then the shop gives a payment back, in full or half (a wrong order, a
          // double charge): its own draws, so the rest of the campus stays as it was.
          if (refunds.chance(0.012)) {
            const refund: DayEvent = {
              kind: "refund",
              at: event.at + refunds.int(5, 240) * 60_000,
              of: index,
              sen: refunds.chance(0.6) ? amountSen : Math.max(10, Math.round(amountSen / 20) * 10),
            };
            const later = events.findIndex((other, j) => j > i && other.at > refund.at);
            events.splice(later === -1 ? events.length : later, 0, refund);
          }
        } else if (event.kind === "refund") {
          const payment = rows[event.of]!;
          if (event.sen === -payment.amountSen) payment.status = "reversed";
          push({
            type: "refund",
            amountSen: event.sen,
            status: "success",
            businessId: payment.businessId,
            reference: reference("RF", event.at),
            remark: refunds.pick(["Order cancelled", "Charged twice", "Item out of stock"]),
            adminId: refunds.pick(counterStaffIds) ?? null,
            createdAt: new Date(event.at),
            reversesIndex: event.of,
          });
        } else if (event.kind === "reversal") {
          const top = rows[event.of]!;
          if (balance < top.amountSen) continue; // already spent: nothing to take back
          top.status = "reversed";
          push({
            type: "reversal",
            amountSen: -top.amountSen,
            status: "success",
            reference: `RV${top.reference}`,
            remark: prng.pick([
              "Keyed in twice",
              "Credited to the wrong wallet",
              "Cash not received",
            ]),
            adminId: prng.pick(counterStaffIds) ?? null,
            createdAt: new Date(event.at),
            reversesIndex: event.of,
          });
        } else {
          const channel = weighted(prng, TOP_UP_CHANNELS);
          const amountSen = prng.pick([1000, 2000, 3000, 5000, 5000, 10000, 10000, 20000]);
          if (balance + amountSen > DEMO_MAX_BALANCE_SEN) continue;
          const fate = channel === "fpx" ? prng.next() : 1;
          const status =
            fate < 0.03 ? "failed" : fate < 0.15 && now - event.at < DAY ? "pending" : "success";
          const index = push(
            {
              type: "top_up",
              amountSen,
              channel,
              status,
              agentUserId: channel === "agent" ? (prng.pick(agentIds) ?? null) : null,
              adminId: channel === "counter" ? (prng.pick(counterStaffIds) ?? null) : null,
              reference: reference("TU", event.at),
              createdAt: new Date(event.at),
            },
            status === "success",
          );
          // Now and then staff take a counter or agent top-up back (keyed in twice, wrong wallet).
          if (
            status === "success" &&
            (channel === "counter" || channel === "agent") &&
            prng.chance(0.04)
          ) {
            const reversal: DayEvent = {
              kind: "reversal",
              at: event.at + prng.int(5, 90) * 60_000,
              of: index,
            };
            const later = events.findIndex((other, j) => j > i && other.at > reversal.at);
            events.splice(later === -1 ? events.length : later, 0, reversal);
          }
        }
      }
    }
  }
  // Reversals and refunds point at the row they undo. Its id is drawn before anything is
  // inserted, in the rows' order: the two often go in with one statement, and the ledger is
  // append-only (reverses_id cannot be set afterwards).
  const ids = (
    await tx.execute<{ id: number }>(sql`
      select nextval(pg_get_serial_sequence('wallet_transactions', 'id'))::int as id
      from generate_series(1, ${rows.length}::int) order by 1`)
  ).rows.map((row) => row.id);
  // Each wallet's chain (docs/integrity.md), linked here rather than row by row by the trigger.
  const chained = await linkLedgerRows(
    tx,
    rows.map(({ reversesIndex, ...row }, i) => ({
      ...row,
      id: ids[i]!,
      reversesId: reversesIndex === undefined ? null : ids[reversesIndex]!,
    })),
  );
  for (let first = 0; first < rows.length; first += INSERT_BATCH) {
    await tx
      .insert(walletTransactions)
      .overridingSystemValue()
      .values(chained.rows.slice(first, first + INSERT_BATCH));
  }
  await chained.moveHeads();
  // Each wallet's balance is its ledger's sum; its owner was last active at its last row.
  await tx.execute(sql`
    update wallets w set balance_sen = coalesce(l.total, 0)
    from (select w2.user_id, (select sum(t.amount_sen) from wallet_transactions t
            where t.user_id = w2.user_id and t.status in ('success', 'reversed')) as total
          from wallets w2) l
    where l.user_id = w.user_id`);
  await tx.execute(sql`
    update users u set last_active_at = greatest(u.last_active_at, l.last_at)
    from (select user_id, max(created_at) as last_at from wallet_transactions
          where type in ('top_up', 'payment') group by user_id) l
    where l.user_id = u.id`);
  await rebuildMerchantDays(tx);
  const settled = await insertDemoSettlements(tx, counterStaffIds, now);
  return { rows: rows.length, businesses: shops.length, updateRequests, settlements: settled };
}

/**
 * Weekly settlement runs up to each Sunday of the window, the morning after, through the real run
 * (runSettlements): all paid a day later with a bank reference but one that failed (a closed
 * account), and the latest run's still pending. Today's and this week's payments stay unsettled.
 */
async function insertDemoSettlements(tx: Tx, staffIds: number[], now: number): Promise<number> {
  const campusDay = (at: number) => new Date(at + CAMPUS_OFFSET).toISOString().slice(0, 10);
  const sundays: number[] = [];
  for (let at = now - (DEMO_MONEY_DAYS - 7) * DAY; at < now - DAY; at += DAY) {
    if (new Date(at + CAMPUS_OFFSET).getUTCDay() === 0) sundays.push(at);
  }
  let created = 0;
  for (const [index, sunday] of sundays.entries()) {
    // 10:00 campus time on the Monday after: the Sunday's campus midnight, a day and ten hours.
    const runAt = sunday - ((sunday + CAMPUS_OFFSET) % DAY) + DAY + 10 * HOUR;
    if (runAt >= now) break;
    const adminId = staffIds[index % Math.max(staffIds.length, 1)] ?? null;
    const run = await runSettlements(tx, {
      periodEnd: campusDay(sunday),
      adminId,
      at: new Date(runAt),
    });
    created += run.created;
    const latest = index === sundays.length - 1 || runAt + 7 * DAY >= now;
    if (latest) continue;
    const paidAt = new Date(runAt + DAY).toISOString();
    const ofRun = sql`created_at = ${new Date(runAt).toISOString()}::timestamptz`;
    await tx.execute(sql`
      update settlements set status = 'paid',
        bank_reference = 'MBB' || ${campusDay(runAt + DAY).replaceAll("-", "")} || '-'
                         || lpad(id::text, 6, '0'),
        paid_at = ${paidAt}::timestamptz, reviewer_id = ${adminId},
        reviewed_at = ${paidAt}::timestamptz, updated_at = ${paidAt}::timestamptz
      where ${ofRun}`);
    if (index === 1) {
      await tx.execute(sql`
        update settlements set status = 'failed', bank_reference = null, paid_at = null,
          remark = 'Transfer returned: the bank account was closed'
        where id = (select min(id) from settlements where ${ofRun})`);
    }
    // Their history, as marking them in the console would have written it.
    await tx.execute(sql`
      insert into audit_log (admin_id, action, target_table, target_id, remark, before, after,
                             created_at)
      select reviewer_id, 'settlement.mark-' || status, 'settlements', id::text,
             coalesce(bank_reference, remark), '{"status": "pending"}'::jsonb,
             jsonb_build_object('status', status, 'bankReference', bank_reference),
             reviewed_at
      from settlements where ${ofRun}`);
  }
  return created;
}
