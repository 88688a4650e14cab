/**
 * Issue 35, item 2: two instances on one PostgreSQL deliver a change made on A to a stream on B
 * (LISTEN/NOTIFY; docs/live-updates.md). Two apps, each with its own pool and its own listening
 * connection, on one database. PostgreSQL only: the embedded store is one process by design
 * (its DATA_DIR lock refuses a second), and there its channel is in-process.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { App } from "../../server/app";
import { openDatabase, type Database } from "../../server/db";
import { auth, createAdmin, createTestApp, DEMO, login } from "./support/app";
import { createTestDatabase, POSTGRES_URL, type TestDatabase } from "./support/database";
import { changeOf, openStream, type LiveStream } from "./support/live-stream";
import { buildApp } from "../../server/app";
import { join } from "node:path";
import { PERMISSION } from "../../src/shared/permissions";

let testDb: TestDatabase;
let second: Database;
let a: App;
let b: App;
const streams: LiveStream[] = [];

async function baseOf(app: App) {
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
}

describe.skipIf(!POSTGRES_URL)("live updates across two instances on one PostgreSQL", () => {
  beforeAll(async () => {
    testDb = await createTestDatabase();
    a = await createTestApp(testDb);
    second = await openDatabase({ dataDir: join(testDb.dataDir, "b"), databaseUrl: testDb.url! });
    b = await buildApp({
      config: testDb.config(),
      database: second,
      distDir: join(testDb.dataDir, "no-console-here"),
    });
  });
  afterAll(async () => {
    for (const opened of streams) opened.close();
    await b?.close();
    await second?.close();
    await a?.close();
    await testDb?.destroy();
  });

  it("a change made on A reaches a stream on B; a logout on A closes B's stream", async () => {
    const baseB = await baseOf(b);
    const superToken = (await login(a, DEMO.superAdmin)).token;
    const other = await createAdmin(a, superToken, [PERMISSION.admin]);
    const onB = await openStream(baseB, superToken);
    streams.push(onB);
    expect(onB.status).toBe(200);
    await onB.next((event) => event.event === "ready");
    const renamed = await a.inject({
      method: "PATCH",
      url: "/v1/api/account/admin",
      headers: auth(other.token),
      payload: { name: "Changed On A" },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const event = await onB.next(
      (e) => e.event === "change" && (changeOf(e).ids ?? []).includes(String(other.admin.id)),
    );
    expect(changeOf(event).modules).toContain("administrators");

    const watched = await openStream(baseB, other.token);
    streams.push(watched);
    await watched.next((e) => e.event === "ready");
    const out = await a.inject({
      method: "POST",
      url: "/v1/api/auth/logout",
      headers: auth(other.token),
    });
    expect(out.statusCode).toBeLessThan(300);
    await watched.next((e) => e.event === "revoked", 3000);
    await watched.ended;
  });
});
