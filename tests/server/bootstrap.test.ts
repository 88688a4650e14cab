import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { ConfigError } from "../../server/config";
import { administrators, auditLog } from "../../server/db/schema";
import { seedDatabase } from "../../server/seed/seed";
import { createTestApp, login, PRODUCTION_ENV } from "./support/app";
import { createTestDatabase, type TestDatabase } from "./support/database";

let testDb: TestDatabase;

const production = PRODUCTION_ENV;

beforeAll(async () => {
  testDb = await createTestDatabase();
  // A production database starts without administrators.
  await testDb.database.db.delete(administrators);
});

afterAll(async () => {
  await testDb?.destroy();
});

describe("the production bootstrap", () => {
  it("refuses to run with no administrator and no ADMIN_EMAIL/ADMIN_PASSWORD", async () => {
    await expect(seedDatabase(testDb.database.db, testDb.config(production))).rejects.toThrow(
      /ADMIN_EMAIL and ADMIN_PASSWORD/,
    );
  });

  it("refuses a weak ADMIN_PASSWORD", async () => {
    const config = testDb.config({
      ...production,
      ADMIN_EMAIL: "root@campus.example",
      ADMIN_PASSWORD: "password",
    });
    await expect(seedDatabase(testDb.database.db, config)).rejects.toBeInstanceOf(ConfigError);
  });

  it("creates the first super administrator once, and no demo accounts", async () => {
    const config = testDb.config({
      ...production,
      ADMIN_EMAIL: "root@campus.example",
      ADMIN_PASSWORD: "Root#Passw0rd",
    });
    expect(await seedDatabase(testDb.database.db, config)).toEqual({
      bootstrapAdmin: true,
      demo: false,
    });
    expect(await seedDatabase(testDb.database.db, config)).toEqual({
      bootstrapAdmin: false,
      demo: false,
    });
    const rows = await testDb.database.db.select().from(administrators);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      email: "root@campus.example",
      isSuperAdmin: true,
      status: "active",
      permissions: [0, 4, 8, 12, 16, 20, 24, 28, 32, 33, 35, 37, 38, 39],
    });
    const [audited] = await testDb.database.db
      .select({ n: count() })
      .from(auditLog)
      .where(eq(auditLog.action, "administrator.bootstrap"));
    expect(audited?.n).toBe(1);

    const app = await createTestApp(testDb, {
      ...production,
      ADMIN_EMAIL: "root@campus.example",
      ADMIN_PASSWORD: "Root#Passw0rd",
    });
    try {
      const { admin } = await login(app, {
        email: "root@campus.example",
        password: "Root#Passw0rd",
      });
      expect(admin.isSuperAdmin).toBe(true);
      const demo = await app.inject({
        method: "POST",
        url: "/v1/api/auth/login",
        payload: { email: "superadmin@wallet.example", password: "SuperAdmin#2026" },
      });
      expect(demo.statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });
});
