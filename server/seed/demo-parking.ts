/**
 * UCSI Parking's demo campus: the car parks around UCSI's Kuala Lumpur campus (one closed, one
 * nearly full, one whose rate rose last week), two weeks of stays ended with their fees charged
 * to the drivers' wallets as payments (through the ledger, so balances stay the sum of their
 * rows; the same rows payParkingFee writes, set-based to keep seeding fast), a few cancelled
 * with a remark, and the cars parked now.
 */
import { and, desc, eq, gt, sql } from "drizzle-orm";

import { parkingFeeSen } from "../../src/shared/modules/parking";
import { newReference } from "../services/ledger";
import { createPrng, DEMO_SEED } from "./demo-data";
import type { Tx } from "../db";
import { parkingLots, parkingSessions, users, wallets, walletTransactions } from "../db/schema";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Around the campus at Taman Connaught, Cheras (3.0797 N, 101.7336 E). */
const LOTS = [
  ["North Wing basement", "NW-B1", 3.0806, 101.7331, 320, 100, 500, "open"],
  ["South Wing multi-storey", "SW-MS", 3.0788, 101.7339, 450, 100, 500, "open"],
  ["Block G open lot", "G-OPEN", 3.0799, 101.7348, 60, 80, 400, "open"],
  ["Sports complex", "SPORTS", 3.0815, 101.7352, 120, 50, 300, "open"],
  ["Staff reserved", "STAFF", 3.0801, 101.7325, 40, 50, 250, "open"],
  ["Visitor lot", "VISIT", 3.0792, 101.7322, 8, 200, 1000, "open"],
  ["Residence hall", "HOSTEL", 3.0778, 101.7357, 200, 100, 500, "open"],
  ["East extension (works)", "EAST-X", 3.0784, 101.7368, 90, 100, 500, "closed"],
] as const;

/** The Visitor lot's rate until last week: stays that began before keep it. */
const VISITOR_OLD_RATE = { hourlyRateSen: 150, dailyCapSen: 800 };
const VISITOR_RAISED_AT = Date.now() - 7 * DAY;

const PREFIXES = ["W", "V", "B", "J", "P", "A", "N", "M"];
const LETTERS = "ABCDEFGHJKLMNPQRSTUVWXY";

export async function seedDemoParking(tx: Tx, staffIds: readonly number[]): Promise<void> {
  const prng = createPrng(DEMO_SEED + 39);
  const now = Date.now();
  const lots = await tx
    .insert(parkingLots)
    .values(
      LOTS.map(
        ([name, code, latitude, longitude, capacity, hourlyRateSen, dailyCapSen, status]) => ({
          name,
          code,
          latitude,
          longitude,
          capacity,
          hourlyRateSen,
          dailyCapSen,
          status,
        }),
      ),
    )
    .returning();
  const open = lots.filter((lot) => lot.status === "open" && lot.code !== "VISIT");
  const visitor = lots.find((lot) => lot.code === "VISIT")!;
  const drivers = await tx
    .select({ id: users.id, accountNumber: users.accountNumber, balanceSen: wallets.balanceSen })
    .from(users)
    .innerJoin(wallets, eq(wallets.userId, users.id))
    .where(and(eq(wallets.status, "active"), gt(wallets.balanceSen, 1_000)))
    .orderBy(desc(wallets.balanceSen), users.id)
    .limit(70);
  const plate = () =>
    `${prng.pick(PREFIXES)}${prng.pick([...LETTERS])}${prng.pick([...LETTERS])}${prng.int(1, 9999)}`;

  // Parked now: the first 24 drivers, the Visitor lot full, the rest spread.
  const parked = drivers.slice(0, 24);
  const active = parked.map((driver, index) => {
    const lot = index < visitor.capacity ? visitor : prng.pick(open);
    return {
      lotId: lot.id,
      userId: driver.id,
      plate: plate(),
      enteredAt: new Date(now - prng.int(10, 600) * 60_000),
      hourlyRateSen: lot.hourlyRateSen,
      dailyCapSen: lot.dailyCapSen,
    };
  });
  await tx.insert(parkingSessions).values(active).onConflictDoNothing();

  // Two weeks of stays, oldest first, each ended by staff or the gate with its fee charged.
  const stays = drivers.slice(24).flatMap((driver) =>
    Array.from({ length: prng.int(1, 4) }, () => {
      const lot = prng.chance(0.15) ? visitor : prng.pick(open);
      const enteredAt = now - prng.int(1, 14) * DAY + prng.int(-3, 3) * HOUR;
      return { driver, lot, enteredAt, hours: prng.chance(0.1) ? prng.int(9, 30) : prng.int(1, 8) };
    }),
  );
  stays.sort((a, b) => a.enteredAt + a.hours * HOUR - (b.enteredAt + b.hours * HOUR));
  // Set-based, after every other demo row: each driver's fees in time order, the balance after
  // each one (so balance = the sum of the ledger, row after row), one insert for all of them.
  const balances = new Map(drivers.map((driver) => [driver.id, driver.balanceSen]));
  const payments: Array<typeof walletTransactions.$inferInsert> = [];
  const ended: Array<typeof parkingSessions.$inferInsert & { paymentIndex?: number }> = [];
  for (const stay of stays) {
    const rates =
      stay.lot === visitor && stay.enteredAt < VISITOR_RAISED_AT ? VISITOR_OLD_RATE : stay.lot;
    const enteredAt = new Date(stay.enteredAt);
    const exitedAt = new Date(
      Math.min(now - HOUR, stay.enteredAt + stay.hours * HOUR - prng.int(0, 50) * 60_000),
    );
    const byHand = prng.chance(0.3);
    const base = {
      lotId: stay.lot.id,
      userId: stay.driver.id,
      plate: plate(),
      enteredAt,
      exitedAt,
      hourlyRateSen: rates.hourlyRateSen,
      dailyCapSen: rates.dailyCapSen,
      adminId: byHand ? (prng.pick(staffIds) ?? null) : null,
      remark: byHand
        ? prng.pick(["Barrier did not open", "Ticket unreadable", "Gate offline"])
        : null,
    };
    if (prng.chance(0.06)) {
      ended.push({
        ...base,
        status: "cancelled",
        adminId: prng.pick(staffIds) ?? null,
        remark: prng.pick(["Entered by mistake", "Gate read the wrong plate", "Ambulance, no fee"]),
      });
      continue;
    }
    const feeSen = parkingFeeSen(enteredAt, exitedAt, rates);
    const balanceSen = balances.get(stay.driver.id)! - feeSen;
    if (balanceSen < 0) continue; // a wallet spent out by then: that stay is not in the demo
    balances.set(stay.driver.id, balanceSen);
    const reference = newReference("PK", exitedAt);
    payments.push({
      userId: stay.driver.id,
      type: "payment",
      amountSen: -feeSen,
      balanceAfterSen: balanceSen,
      status: "success",
      reference,
      feeSen: 0,
      remark: `Parking ${base.plate} at ${stay.lot.name}`,
      adminId: base.adminId,
      searchText: `${reference}\u001f${stay.driver.accountNumber}`.toLowerCase(),
      createdAt: exitedAt,
    });
    ended.push({ ...base, status: "completed", feeSen, paymentIndex: payments.length - 1 });
  }
  const paid =
    payments.length > 0
      ? await tx
          .insert(walletTransactions)
          .values(payments)
          .returning({ id: walletTransactions.id })
      : [];
  if (ended.length > 0) {
    await tx.insert(parkingSessions).values(
      ended.map(({ paymentIndex, ...session }) => ({
        ...session,
        paymentId: paymentIndex === undefined ? null : paid[paymentIndex]!.id,
      })),
    );
  }
  const charged = [...balances].filter(
    ([id, balanceSen]) => drivers.find((driver) => driver.id === id)!.balanceSen !== balanceSen,
  );
  if (charged.length > 0) {
    await tx.execute(sql`update ${wallets} set balance_sen = charged.balance_sen
      from (values ${sql.join(
        charged.map(([id, balanceSen]) => sql`(${id}::int, ${balanceSen}::bigint)`),
        sql`, `,
      )}) as charged(user_id, balance_sen)
      where ${wallets.userId} = charged.user_id`);
  }
}
