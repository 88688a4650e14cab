import { join } from "node:path";

import { afterAll, beforeAll, expect } from "vitest";

import { buildApp, type App } from "../../../server/app";
import { AUDIENCES, createTokenService } from "../../../server/auth/tokens";
import { administrators, users } from "../../../server/db/schema";
import { seedDatabase } from "../../../server/seed/seed";
import { PERMISSION_CODES } from "../../../src/shared/permissions";
import type { AdminDto } from "../../../src/shared/schemas/administrators";
import { createTestDatabase, type TestDatabase } from "./database";
import { A_REASON, injectApproved } from "./four-eyes";
import { auth, DEMO, login } from "./session";

// Signing in lives in ./session (./four-eyes needs it too); tests import it from here as before.
export { auth, DEMO, login } from "./session";

/** The API on this test file's database, without the console's files unless `distDir` says so. */
export function createTestApp(
  testDb: TestDatabase,
  env: Record<string, string> = {},
  options: { distDir?: string } = {},
): Promise<App> {
  return buildApp({
    config: testDb.config(env),
    database: testDb.database,
    distDir: options.distDir ?? join(testDb.dataDir, "no-console-here"),
  });
}

let counter = 0;

/**
 * A new administrator created through the API by `token`'s holder and, as four eyes asks once
 * another administrator could check it, approved by the demo's second super administrator (or
 * `checker`'s holder); returns it and its token.
 */
export async function createAdmin(
  app: App,
  token: string,
  permissions: number[],
  overrides: { name?: string; email?: string; password?: string; checker?: string } = {},
): Promise<{ admin: AdminDto; token: string; password: string }> {
  counter += 1;
  const password = overrides.password ?? "Correct#Horse1";
  const email =
    overrides.email ?? `test.admin.${process.pid}.${counter}.${Date.now()}@wallet.example`;
  const response = await injectApproved(
    app,
    {
      method: "POST",
      url: "/v1/api/administrators",
      headers: { ...auth(token), ...A_REASON },
      payload: { name: overrides.name ?? `Test Admin ${counter}`, email, password, permissions },
    },
    overrides.checker,
  );
  expect(response.statusCode, response.body).toBe(201);
  const admin = response.json<AdminDto>();
  const session = await login(app, { email, password });
  return { admin, token: session.token, password };
}

/** Per code: the token of a new administrator holding every permission code but that one. */
export async function tokensLacking(
  app: App,
  superToken: string,
  codes: Iterable<number>,
): Promise<Map<number, string>> {
  const lacking = new Map<number, string>();
  for (const code of new Set(codes)) {
    const others = PERMISSION_CODES.filter((other) => other !== code);
    lacking.set(code, (await createAdmin(app, superToken, [...others])).token);
  }
  return lacking;
}

/** What a test file of the API works with; filled in before its first test runs. */
export interface SignedInApp {
  testDb: TestDatabase;
  app: App;
  /** The super administrator's token (logged in once: a login hashes slowly on purpose). */
  token: string;
}

/**
 * A fresh database and app for one test file, opened before its tests and closed after, with the
 * super administrator logged in once.
 */
export function useSignedInApp(env: Record<string, string> = {}): SignedInApp {
  const suite = {} as SignedInApp;
  beforeAll(async () => {
    suite.testDb = await createTestDatabase();
    suite.app = await createTestApp(suite.testDb, env);
    suite.token = (await login(suite.app, DEMO.superAdmin)).token;
  });
  afterAll(async () => {
    await suite.app?.close();
    await suite.testDb?.destroy();
  });
  return suite;
}

/**
 * A wallet app token for a fresh wallet user, as the app's sign-in would issue it: what the
 * wallet app's routes ("wallet" access) take instead of a console token.
 */
export async function walletAppToken(testDb: TestDatabase): Promise<string> {
  const [user] = await testDb.database.db
    .insert(users)
    .values({
      accountNumber: `W${process.pid}${Date.now() % 1_000_000}`,
      name: "Wallet App Fixture",
      role: "student",
    })
    .returning();
  const { jwtSecret, jwtTtlSeconds } = testDb.config();
  return createTokenService(jwtSecret, jwtTtlSeconds, AUDIENCES.walletApp).sign(user!.id, 0);
}

/** What production requires of the environment (its secrets, for tests only). */
export const PRODUCTION_ENV = {
  NODE_ENV: "production",
  JWT_SECRET: "production-secret-production-secret-0123",
  SECOND_FACTOR_KEY: "production-second-factor-key-0123456789",
  INTEGRITY_SIGNING_KEY: "ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8=",
  RECAPTCHA_SECRET: "production-recaptcha-secret",
  PUBLIC_URL: "https://console.wallet.example",
} as const;

/** The first super administrator a production start makes (ADMIN_EMAIL / ADMIN_PASSWORD). */
export const PRODUCTION_ROOT = { email: "root@campus.example", password: "Root#Passw0rd" };

/**
 * The API as a new production installation runs it: no demo administrators, only the first
 * super administrator, signed in (`token`). `close` ends the app and its database.
 */
export async function productionApp() {
  const env = {
    ...PRODUCTION_ENV,
    ADMIN_EMAIL: PRODUCTION_ROOT.email,
    ADMIN_PASSWORD: PRODUCTION_ROOT.password,
  };
  const testDb = await createTestDatabase();
  const app = await createTestApp(testDb, env);
  const db = testDb.database.db;
  // A production database starts without administrators: the first is ADMIN_EMAIL's.
  await db.delete(administrators);
  await seedDatabase(db, testDb.config(env));
  const { token } = await login(app, PRODUCTION_ROOT);
  return {
    app,
    db,
    token,
    close: async () => {
      await app.close();
      await testDb.destroy();
    },
  };
}

/**
 * A new client address at each call, in 10.`network`.0.0/16, so that no limit per address is
 * ever what refuses a request (those limits are other tests' business).
 */
export function addressesIn(network: number): () => string {
  let count = 0;
  return () => {
    count += 1;
    return `10.${network}.${Math.floor(count / 250)}.${(count % 250) + 1}`;
  };
}
