/**
 * A failed statement must never leave a pooled connection broken. On the embedded database (one
 * PGlite backend behind every socket connection) a failed query used to get its connection
 * replaced while the backend kept the old connection's named prepared statements, so every
 * signed-in request then failed with `prepared statement "session_administrator" already exists`.
 */
import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";

import { buildApp } from "../../server/app";
import { openDatabase } from "../../server/db";
import { auth, useSignedInApp } from "./support/app";
import { POSTGRES_URL } from "./support/database";

const suite = useSignedInApp();

/** A signed-in request: it runs the named prepared statement `session_administrator`. */
async function expectSignedInRequestWorks() {
  for (let i = 0; i < 3; i++) {
    const response = await suite.app.inject({
      method: "GET",
      url: "/v1/api/account/admin",
      headers: auth(suite.token),
    });
    expect(response.statusCode, response.body).toBe(200);
  }
}

describe("a failed statement leaves the database usable", () => {
  it("a NUL byte in a login e-mail is refused with 400, and signed-in requests still work", async () => {
    await expectSignedInRequestWorks();
    const response = await suite.app.inject({
      method: "POST",
      url: "/v1/api/auth/login",
      payload: { email: "a\u0000@x.example", password: "whatever" },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({
      code: "VALIDATION_ERROR",
      message: expect.stringMatching(/^Invalid email: .*control characters/),
    });
    await expectSignedInRequestWorks();
  });

  it("a statement the database refuses (a NUL byte in a parameter) does not break later requests", async () => {
    await expectSignedInRequestWorks();
    await expect(
      suite.testDb.database.db.execute(sql`select ${"a\u0000b"}::text as value`),
    ).rejects.toThrow();
    await expectSignedInRequestWorks();
  });

  it("a statement failing at the database (division by zero) does not break later requests", async () => {
    await expectSignedInRequestWorks();
    await expect(
      suite.testDb.database.db.execute(sql`select 1 / 0 as value`),
    ).rejects.toMatchObject({
      cause: { message: expect.stringMatching(/division by zero/) },
    });
    await expectSignedInRequestWorks();
  });

  it("a statement failing inside a transaction does not break later requests", async () => {
    await expectSignedInRequestWorks();
    await expect(
      suite.testDb.database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await tx.execute(sql`select ${"a\u0000"}::text`);
      }),
    ).rejects.toThrow();
    await expectSignedInRequestWorks();
    const [row] = (await suite.testDb.database.db.execute(sql`select 41 + 1 as answer`)).rows;
    expect(row).toEqual({ answer: 42 });
  });
});

describe.skipIf(POSTGRES_URL === undefined)("STATEMENT_TIMEOUT_MS (PostgreSQL)", () => {
  it("stops a request's statement that runs past the limit with 503 QUERY_TIMEOUT, and the next one works", async () => {
    const { testDb } = suite;
    // A server whose statements may take 300 ms, on the suite's database.
    const database = await openDatabase({
      dataDir: testDb.dataDir,
      databaseUrl: testDb.url,
      statementTimeoutMs: 300,
    });
    const app = await buildApp({
      config: testDb.config({ STATEMENT_TIMEOUT_MS: "300" }),
      database,
      distDir: `${testDb.dataDir}/no-console-here`,
    });
    // Another session holds the ledger: the top-up list waits for it past the limit.
    const holder = new pg.Client({ connectionString: testDb.url });
    await holder.connect();
    const list = () =>
      app.inject({
        method: "GET",
        url: "/v1/api/top-up-transactions/aggregation",
        headers: auth(suite.token),
      });
    try {
      await holder.query("begin");
      await holder.query("lock table wallet_transactions in access exclusive mode");
      const started = Date.now();
      const stopped = await list();
      expect(stopped.statusCode, stopped.body).toBe(503);
      expect(stopped.json()).toMatchObject({ code: "QUERY_TIMEOUT" });
      expect(Date.now() - started).toBeLessThan(5_000);
      await holder.query("rollback");
      const answered = await list();
      expect(answered.statusCode, answered.body).toBe(200);
    } finally {
      await holder.end();
      await app.close();
      await database.close();
    }
  });
});
