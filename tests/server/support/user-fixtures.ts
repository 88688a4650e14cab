import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";

import type { App } from "../../../server/app";
import type { Db } from "../../../server/db";
import {
  auditLog,
  users,
  wallets,
  walletTransactions,
  type UserRow,
} from "../../../server/db/schema";
import { noPermissionMessage } from "../../../server/auth/access";
import { A_REASON, injectApproved } from "./four-eyes";
import { auth, createTestApp, DEMO, login } from "./app";
import { createTestDatabase, type TestDatabase } from "./database";

let sequence = 0;

/** What a user-administration test file works with; filled in before its first test runs. */
export interface UserDeskSuite {
  testDb: TestDatabase;
  db: Db;
  app: App;
  /** The user desk administrator (code 0): token and id. */
  desk: string;
  deskAdminId: number;
  /** The finance administrator's token: no code 0. */
  finance: string;
}

/**
 * A fresh database and app for one test file (opened before its tests, closed after), with the
 * user desk and finance administrators logged in once each (a login hashes slowly on purpose).
 */
export function useUserDeskSuite(env: Record<string, string> = {}): UserDeskSuite {
  const suite = {} as UserDeskSuite;
  let close = async () => {};
  beforeAll(async () => {
    const testDb = await createTestDatabase();
    const app = await createTestApp(testDb, env);
    close = async () => {
      await app.close();
      await testDb.destroy();
    };
    const desk = await login(app, DEMO.userDesk);
    const finance = await login(app, DEMO.finance);
    Object.assign(suite, {
      testDb,
      db: testDb.database.db,
      app,
      desk: desk.token,
      deskAdminId: desk.admin.id,
      finance: finance.token,
    });
  });
  afterAll(() => close());
  return suite;
}

/** A user of the test's own, beside the seeded ones: pending student unless `values` say otherwise. */
export async function insertUser(
  db: Db,
  values: Partial<typeof users.$inferInsert> = {},
): Promise<UserRow> {
  sequence += 1;
  const [row] = await db
    .insert(users)
    .values({
      accountNumber: `T${process.pid}${String(sequence).padStart(4, "0")}`,
      name: `Fixture User ${sequence}`,
      email: `fixture.${process.pid}.${sequence}@example.com`,
      phone: `+60 12-${String(sequence).padStart(7, "0")}`,
      role: "student",
      ...values,
    })
    .returning();
  if (!row) throw new Error("INSERT users returned no row");
  return row;
}

/**
 * An approved user with an active wallet holding `balanceSen`, as the ledger has it: one opening
 * `adjustment` row, so balance = sum of the ledger from the start.
 */
export async function insertWalletUser(db: Db, balanceSen = 0): Promise<UserRow> {
  const user = await insertUser(db, { approvalStatus: "approved" });
  await db.insert(wallets).values({ userId: user.id, balanceSen });
  if (balanceSen > 0) {
    await db.insert(walletTransactions).values({
      userId: user.id,
      type: "adjustment",
      amountSen: balanceSen,
      balanceAfterSen: balanceSen,
      reference: `AJ-TEST-${user.id}`,
      searchText: `aj-test-${user.id}`,
    });
  }
  return user;
}

export async function findUser(db: Db, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

/** The audit entries about one target, newest first. */
export function auditEntries(db: Db, targetTable: string, targetId: number) {
  return db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetTable, targetTable), eq(auditLog.targetId, String(targetId))))
    .orderBy(desc(auditLog.id));
}

/** Sends a JSON call as the holder of `token`. */
export function call(
  app: App,
  token: string,
  method: "GET" | "POST" | "PATCH",
  url: string,
  payload?: unknown,
) {
  return app.inject({
    method,
    url: `/v1${url}`,
    headers: auth(token),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

/** `call`, approved by a second administrator when the change waits for one (four eyes). */
export function callApproved(
  app: App,
  token: string,
  method: "POST" | "PATCH",
  url: string,
  payload?: unknown,
) {
  return injectApproved(app, {
    method,
    url: `/v1${url}`,
    headers: { ...auth(token), ...A_REASON },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

/** Asserts the exact 403 text of a permission route. */
export function expectNoPermission(
  response: { statusCode: number; body: string; json(): unknown },
  method: string,
  thing: string,
) {
  expect(response.statusCode, response.body).toBe(403);
  expect(response.json()).toEqual({ message: noPermissionMessage(method, thing) });
}

/** Asserts a 4xx with `code` and returns the body. */
export function expectError(
  response: { statusCode: number; body: string; json(): unknown },
  status: number,
  code: string,
) {
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json() as { code?: string; message: string };
  expect(body.code).toBe(code);
  return body;
}
