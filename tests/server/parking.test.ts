/**
 * UCSI Parking (issue 14) through HTTP on a real database: lots added and changed (bad input
 * refused, nothing stored), sessions registered by hand into open lots with free bays, ended with
 * the fee by the session's own rates charged to the wallet as a payment row, refused whole when
 * the balance is short, cancelled with a remark; permissions and audit entries.
 */
import { count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { parkingLots, parkingSessions, wallets, walletTransactions } from "../../server/db/schema";
import { parkingFeeSen } from "../../src/shared/modules/parking";
import { createAdmin, DEMO, login } from "./support/app";
import {
  auditEntries,
  call,
  expectError,
  expectNoPermission,
  insertWalletUser,
  useUserDeskSuite,
} from "./support/user-fixtures";

const suite = useUserDeskSuite();
let staff = "";
let lotSequence = 0;

beforeAll(async () => {
  const superToken = (await login(suite.app, DEMO.superAdmin)).token;
  staff = (await createAdmin(suite.app, superToken, [39])).token;
}, 60_000);

const HOUR = 3_600_000;

const query = (params: Record<string, unknown>) =>
  new URLSearchParams(
    Object.entries(params).map(([key, value]): [string, string] => [key, JSON.stringify(value)]),
  ).toString();

function aLot(overrides: Record<string, unknown> = {}) {
  lotSequence += 1;
  return {
    name: `Test Lot ${lotSequence}`,
    code: `T${process.pid % 1000}-${lotSequence}`,
    latitude: 3.0796,
    longitude: 101.7332,
    capacity: 2,
    hourlyRateSen: 100,
    dailyCapSen: 500,
    status: "open",
    ...overrides,
  };
}

async function addLot(overrides: Record<string, unknown> = {}) {
  const response = await call(suite.app, staff, "POST", "/api/parking-lots", aLot(overrides));
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: number; code: string } & Record<string, unknown>>();
}

const startSession = (body: Record<string, unknown>) =>
  call(suite.app, staff, "POST", "/api/parking-sessions", body);

/** A session of a fresh wallet holding `balanceSen`, moved back to have entered `hoursAgo`. */
async function parked(balanceSen: number, hoursAgo: number, lotCode?: string) {
  const user = await insertWalletUser(suite.db, balanceSen);
  const code = lotCode ?? (await addLot()).code;
  const plate = `TST${user.id}`;
  const response = await startSession({ accountNumber: user.accountNumber, plate, lotCode: code });
  expect(response.statusCode, response.body).toBe(201);
  const session = response.json<{ id: number }>();
  await suite.db
    .update(parkingSessions)
    .set({ enteredAt: new Date(Date.now() - hoursAgo * HOUR) })
    .where(eq(parkingSessions.id, session.id));
  return { user, session, code };
}

async function countLots() {
  const [row] = await suite.db.select({ lots: count() }).from(parkingLots);
  return row!.lots;
}

async function balanceOf(userId: number) {
  const [wallet] = await suite.db
    .select({ balanceSen: wallets.balanceSen })
    .from(wallets)
    .where(eq(wallets.userId, userId));
  return wallet!.balanceSen;
}

describe("the fee", () => {
  const rates = { hourlyRateSen: 100, dailyCapSen: 500 };
  const at = (hours: number) => new Date(Date.UTC(2026, 0, 1) + hours * HOUR);
  it("charges each started hour, each 24 hours capped", () => {
    expect(parkingFeeSen(at(0), at(0), rates)).toBe(0);
    expect(parkingFeeSen(at(0), at(0.01), rates)).toBe(100);
    expect(parkingFeeSen(at(0), at(1), rates)).toBe(100);
    expect(parkingFeeSen(at(0), at(1.5), rates)).toBe(200);
    expect(parkingFeeSen(at(0), at(5), rates)).toBe(500);
    expect(parkingFeeSen(at(0), at(23.5), rates)).toBe(500);
    expect(parkingFeeSen(at(0), at(24), rates)).toBe(500);
    expect(parkingFeeSen(at(0), at(26), rates)).toBe(700);
    expect(parkingFeeSen(at(0), at(72), rates)).toBe(1500);
  });
});

describe("lots", () => {
  it("adds a lot (code upper-cased), lists it with its occupancy and audits it", async () => {
    const lot = await addLot({ code: " zz-9 ", name: "Block Z" });
    expect(lot).toMatchObject({ code: "ZZ-9", name: "Block Z", occupied: 0, status: "open" });
    const list = await call(
      suite.app,
      staff,
      "GET",
      `/api/parking-lots/aggregation?${query({ filter: { code: "ZZ-9" } })}`,
    );
    expect(list.json<{ parkingLots: unknown[] }>().parkingLots).toEqual([lot]);
    const [entry] = await auditEntries(suite.db, "parking_lots", lot.id);
    expect(entry).toMatchObject({ action: "parking_lot.create" });
  });

  it.each([
    ["latitude", { latitude: 91 }],
    ["longitude", { longitude: -180.5 }],
    ["capacity", { capacity: 0 }],
    ["capacity", { capacity: 2.5 }],
    ["hourlyRateSen", { hourlyRateSen: -1 }],
    ["dailyCapSen", { hourlyRateSen: 600, dailyCapSen: 500 }],
    ["code", { code: "=cmd|x" }],
    ["name", { name: "Lot\u0000" }],
    ["latitude", { latitude: "3.1" }],
    ["latitude", { latitude: 3.123456789012 }],
    ["longitude", { longitude: 101.73314159 }],
  ])("refuses a lot with a bad %s, storing nothing", async (_field, overrides) => {
    const before = await countLots();
    const response = await call(suite.app, staff, "POST", "/api/parking-lots", aLot(overrides));
    expectError(response, 400, "VALIDATION_ERROR");
    const after = await countLots();
    expect(after).toBe(before);
  });

  it("keeps a lot's coordinates to 7 decimal places through create, read and edit", async () => {
    const lot = await addLot({ latitude: 3.0797123, longitude: 101.7331456 });
    expect(lot).toMatchObject({ latitude: 3.0797123, longitude: 101.7331456 });
    const edited = await call(suite.app, staff, "PATCH", `/api/parking-lots/${lot.id}`, {
      ...aLot({ code: lot.code, name: lot.name }),
      latitude: -3.0000001,
      longitude: -101.9999999,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const read = await call(suite.app, staff, "GET", `/api/parking-lots/${lot.id}`);
    expect(read.json()).toMatchObject({ latitude: -3.0000001, longitude: -101.9999999 });
  });

  it("refuses a code another lot has (409 LOT_CODE_TAKEN)", async () => {
    const lot = await addLot();
    const response = await call(suite.app, staff, "POST", "/api/parking-lots", {
      ...aLot(),
      code: lot.code,
    });
    expectError(response, 409, "LOT_CODE_TAKEN");
  });

  it("applies a rate change to sessions that start after it only", async () => {
    const { session, code } = await parked(10_000, 2.5);
    const [lot] = await suite.db.select().from(parkingLots).where(eq(parkingLots.code, code));
    const changed = await call(suite.app, staff, "PATCH", `/api/parking-lots/${lot!.id}`, {
      ...aLot(),
      code,
      name: lot!.name,
      hourlyRateSen: 300,
      dailyCapSen: 1500,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const [entry] = await auditEntries(suite.db, "parking_lots", lot!.id);
    expect(entry).toMatchObject({
      action: "parking_lot.update",
      before: expect.objectContaining({ hourlyRateSen: 100 }),
      after: expect.objectContaining({ hourlyRateSen: 300 }),
    });
    const ended = await call(suite.app, staff, "POST", `/api/parking-sessions/${session.id}/end`, {
      remark: "Gate down",
    });
    expect(ended.json()).toMatchObject({ hourlyRateSen: 100, feeSen: 300, status: "completed" });
    const later = await insertWalletUser(suite.db, 0);
    const next = await startSession({
      accountNumber: later.accountNumber,
      plate: "NEW1",
      lotCode: code,
    });
    expect(next.json()).toMatchObject({ hourlyRateSen: 300, dailyCapSen: 1500 });
  });
});

describe("sessions", () => {
  it("registers a car (plate normalised), counts it in the lot and refuses a second entry", async () => {
    const lot = await addLot({ capacity: 1 });
    const user = await insertWalletUser(suite.db, 0);
    const response = await startSession({
      accountNumber: user.accountNumber,
      plate: " wxy 1234 ",
      lotCode: lot.code.toLowerCase(),
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      plate: "WXY1234",
      status: "active",
      lotName: lot.name,
      accountNumber: user.accountNumber,
      feeSen: null,
      exitedAt: null,
    });
    const shown = await call(suite.app, staff, "GET", `/api/parking-lots/${lot.id}`);
    expect(shown.json()).toMatchObject({ occupied: 1 });
    const again = await startSession({
      accountNumber: user.accountNumber,
      plate: "WXY1234",
      lotCode: (await addLot()).code,
    });
    expectError(again, 409, "PLATE_ALREADY_PARKED");
    const full = await startSession({
      accountNumber: user.accountNumber,
      plate: "ABC1",
      lotCode: lot.code,
    });
    expectError(full, 409, "LOT_FULL");
  });

  it("refuses a closed lot, an unknown lot or account, and a bad plate", async () => {
    const user = await insertWalletUser(suite.db, 0);
    const closed = await addLot({ status: "closed" });
    expectError(
      await startSession({ accountNumber: user.accountNumber, plate: "CL1", lotCode: closed.code }),
      409,
      "LOT_CLOSED",
    );
    expectError(
      await startSession({ accountNumber: user.accountNumber, plate: "CL1", lotCode: "NOPE" }),
      400,
      "UNKNOWN_LOT",
    );
    const open = await addLot();
    expectError(
      await startSession({ accountNumber: "W000000000", plate: "CL1", lotCode: open.code }),
      400,
      "UNKNOWN_ACCOUNT",
    );
    expectError(
      await startSession({ accountNumber: user.accountNumber, plate: "=1+1", lotCode: open.code }),
      400,
      "VALIDATION_ERROR",
    );
  });

  it("ends a session: the fee is a payment row of the wallet's ledger, in one transaction", async () => {
    const { user, session } = await parked(1_000, 2.5);
    const response = await call(
      suite.app,
      staff,
      "POST",
      `/api/parking-sessions/${session.id}/end`,
      {
        remark: "Barrier jammed",
      },
    );
    expect(response.statusCode, response.body).toBe(200);
    const ended = response.json<{ paymentReference: string } & Record<string, unknown>>();
    expect(ended).toMatchObject({ status: "completed", feeSen: 300, remark: "Barrier jammed" });
    expect(ended.exitedAt).not.toBeNull();
    expect(ended.paymentReference).toMatch(/^PK/);
    expect(await balanceOf(user.id)).toBe(700);
    const [payment] = await suite.db
      .select()
      .from(walletTransactions)
      .where(eq(walletTransactions.reference, ended.paymentReference));
    expect(payment).toMatchObject({
      type: "payment",
      amountSen: -300,
      balanceAfterSen: 700,
      businessId: null,
      feeSen: 0,
      status: "success",
    });
    const [entry] = await auditEntries(suite.db, "parking_sessions", session.id);
    expect(entry).toMatchObject({ action: "parking_session.end", remark: "Barrier jammed" });
    const twice = await call(suite.app, staff, "POST", `/api/parking-sessions/${session.id}/end`, {
      remark: "Again",
    });
    expectError(twice, 409, "SESSION_NOT_ACTIVE");
  });

  it("refuses to end when the balance is short: the session stays active, nothing is charged", async () => {
    const { user, session } = await parked(150, 3);
    const response = await call(
      suite.app,
      staff,
      "POST",
      `/api/parking-sessions/${session.id}/end`,
      {
        remark: "Leaving",
      },
    );
    expectError(response, 409, "INSUFFICIENT_BALANCE");
    expect(await balanceOf(user.id)).toBe(150);
    const shown = await call(suite.app, staff, "GET", `/api/parking-sessions/${session.id}`);
    expect(shown.json()).toMatchObject({ status: "active", feeSen: null });
    const entries = await auditEntries(suite.db, "parking_sessions", session.id);
    expect(entries.map((entry) => entry.action)).toEqual(["parking_session.create"]);
  });

  it("cancels with a remark (no fee, no ledger row); a remark is required", async () => {
    const { user, session } = await parked(1_000, 5);
    const url = `/api/parking-sessions/${session.id}/cancel`;
    expectError(
      await call(suite.app, staff, "POST", url, { remark: "  " }),
      400,
      "VALIDATION_ERROR",
    );
    const response = await call(suite.app, staff, "POST", url, { remark: "Entered by mistake" });
    expect(response.json()).toMatchObject({
      status: "cancelled",
      feeSen: null,
      paymentReference: null,
    });
    expect(await balanceOf(user.id)).toBe(1_000);
  });

  it("lists with filters and totals the fees", async () => {
    const { session, code } = await parked(5_000, 0.5);
    await call(suite.app, staff, "POST", `/api/parking-sessions/${session.id}/end`, {
      remark: "ok",
    });
    const [lot] = await suite.db.select().from(parkingLots).where(eq(parkingLots.code, code));
    const list = await call(
      suite.app,
      staff,
      "GET",
      `/api/parking-sessions/aggregation?${query({ filter: { lotId: lot!.id, status: "completed" } })}`,
    );
    expect(list.statusCode, list.body).toBe(200);
    const body = list.json<{
      parkingSessions: Array<{ id: number }>;
      totals: { feeSen: number };
    }>();
    expect(body.parkingSessions.map((row) => row.id)).toEqual([session.id]);
    expect(body.totals.feeSen).toBe(100);
  });
});

describe("permissions", () => {
  it("refuses administrators without UCSI Parking (39)", async () => {
    expectNoPermission(
      await call(suite.app, suite.finance, "GET", "/api/parking-lots/aggregation"),
      "GET",
      "Parking Lots",
    );
    const response = await call(suite.app, suite.finance, "POST", "/api/parking-sessions/1/end", {
      remark: "x",
    });
    expect(response.statusCode).toBe(403);
  });
});
