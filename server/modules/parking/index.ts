/**
 * UCSI Parking (docs/modules.md): lots, and sessions ended by hand with their fee
 * charged to the wallet (a payment row of the ledger, server/services/ledger.ts) or cancelled.
 */
import { and, count, eq, sql } from "drizzle-orm";

import type { RemarkBody } from "../../../src/shared/kit/module";
import {
  parkingFeeSen,
  parkingLots,
  parkingSessions,
  type ParkingLotBody,
  type ParkingSessionBody,
} from "../../../src/shared/modules/parking";
import type { Tx } from "../../db";
import {
  parkingLots as lots,
  parkingSessions as sessions,
  users,
  walletTransactions as ledger,
} from "../../db/schema";
import { conflict, HttpError, isUniqueViolation } from "../../errors";
import { adminNameOf, bindModule, type ActionContext } from "../../kit/bind";
import { payParkingFee } from "../../services/ledger";

/** Cars in a lot now: its active sessions. */
const occupied = sql<number>`(select count(*) from ${sessions} as "occupant"
    where "occupant"."lot_id" = "parking_lots"."id" and "occupant"."status" = 'active')`.mapWith(
  Number,
);

const codeTaken = (code: string) =>
  conflict("LOT_CODE_TAKEN", `Another lot has the code ${code}`, { code });

/** Adds or changes a lot; a code another lot has is refused (409 LOT_CODE_TAKEN). */
async function saveLot(tx: Tx, body: ParkingLotBody, id?: number): Promise<number> {
  try {
    if (id === undefined) {
      const [row] = await tx.insert(lots).values(body).returning({ id: lots.id });
      return row!.id;
    }
    await tx.update(lots).set(body).where(eq(lots.id, id));
    return id;
  } catch (error) {
    if (isUniqueViolation(error)) throw codeTaken(body.code);
    throw error;
  }
}

export const parkingLotsModule = bindModule(parkingLots, {
  table: lots,
  columns: { occupied },
  create: (tx, { body }) => saveLot(tx, body),
  // Sessions keep the rates they started with: a new rate is for the cars that come in after.
  edit: async (tx, { id, body }) => {
    await saveLot(tx, body, id);
  },
});

/**
 * Registers a car by hand (the gate did not read it): into an open lot with a free bay (409
 * LOT_CLOSED, LOT_FULL), a plate not already parked (409 PLATE_ALREADY_PARKED), at the lot's
 * rates now. The lot is locked, so two cars cannot take its last bay.
 */
async function startSession(
  tx: Tx,
  { body }: { actor: { id: number }; body: ParkingSessionBody },
): Promise<number> {
  const [lot] = await tx.select().from(lots).where(eq(lots.code, body.lotCode)).for("update");
  if (!lot) throw new HttpError(400, `No lot has the code ${body.lotCode}`, "UNKNOWN_LOT");
  if (lot.status !== "open") throw conflict("LOT_CLOSED", `The lot ${lot.code} is closed`);
  const [user] = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.accountNumber, body.accountNumber));
  if (!user) throw new HttpError(400, "No wallet has this account number", "UNKNOWN_ACCOUNT");
  const [occupied] = await tx
    .select({ cars: count() })
    .from(sessions)
    .where(and(eq(sessions.lotId, lot.id), eq(sessions.status, "active")));
  if ((occupied?.cars ?? 0) >= lot.capacity) {
    throw conflict("LOT_FULL", `The lot ${lot.code} is full`, { capacity: lot.capacity });
  }
  try {
    const [row] = await tx
      .insert(sessions)
      .values({
        lotId: lot.id,
        userId: user.id,
        plate: body.plate,
        enteredAt: new Date(),
        hourlyRateSen: lot.hourlyRateSen,
        dailyCapSen: lot.dailyCapSen,
      })
      .returning({ id: sessions.id });
    return row!.id;
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw conflict("PLATE_ALREADY_PARKED", `${body.plate} is already parked`, {
        plate: body.plate,
      });
    }
    throw error;
  }
}

/**
 * Ends a stay now: its fee by the session's own rates (parkingFeeSen), charged to the driver's
 * wallet as a payment in the same transaction; a short balance refuses the whole end (409
 * INSUFFICIENT_BALANCE) and the session stays active. A free stay writes no ledger row.
 */
async function endSession(tx: Tx, { actor, id, body, before }: ActionContext<RemarkBody>) {
  const exitedAt = new Date();
  const feeSen = parkingFeeSen(new Date(String(before.enteredAt)), exitedAt, {
    hourlyRateSen: Number(before.hourlyRateSen),
    dailyCapSen: Number(before.dailyCapSen),
  });
  const payment =
    feeSen > 0
      ? await payParkingFee(tx, {
          userId: Number(before.userId),
          amountSen: feeSen,
          remark: `Parking ${String(before.plate)} at ${String(before.lotName)}`,
          adminId: actor.id,
        })
      : undefined;
  await tx
    .update(sessions)
    .set({
      status: "completed",
      exitedAt,
      feeSen,
      paymentId: payment?.id ?? null,
      remark: body.remark,
      adminId: actor.id,
    })
    .where(eq(sessions.id, id));
}

/** Cancels a stay (a mistaken entry, a car let out free): no fee, no ledger row. */
async function cancelSession(tx: Tx, { actor, id, body }: ActionContext<RemarkBody>) {
  await tx
    .update(sessions)
    .set({ status: "cancelled", exitedAt: new Date(), remark: body.remark, adminId: actor.id })
    .where(eq(sessions.id, id));
}

export const parkingSessionsModule = bindModule(parkingSessions, {
  table: sessions,
  // Every session has its lot and its driver (not-null foreign keys).
  joins: [
    { table: lots, on: eq(lots.id, sessions.lotId), exactlyOne: true },
    { table: users, on: eq(users.id, sessions.userId), exactlyOne: true },
  ],
  columns: {
    lotName: lots.name,
    accountNumber: users.accountNumber,
    userName: users.name,
    paymentReference: sql<string | null>`(select ${ledger.reference} from ${ledger}
      where ${ledger.id} = ${sessions.paymentId})`,
    adminName: adminNameOf(sessions.adminId),
  },
  options: { lotId: { table: lots, value: lots.id, label: lots.name } },
  actions: { end: endSession, cancel: cancelSession },
  create: startSession,
});
