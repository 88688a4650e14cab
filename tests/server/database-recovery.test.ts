/**
 * A failed statement must never leave a pooled connection broken. On the embedded database (one
 * PGlite backend behind every socket connection) a failed query used to get its connection
 * replaced while the backend kept the old connection's named prepared statements, so every
 * signed-in request then failed with `prepared statement "session_administrator" already exists`.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { auth, useSignedInApp } from "./support/app";

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
