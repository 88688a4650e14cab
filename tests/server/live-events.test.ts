/**
 * Issue 35, item 2: the live updates' stream (docs/live-updates.md) over real HTTP on a real
 * database (both engines): a change reaches a connected stream naming its module and id, only
 * for the modules its administrator may read; no session is refused; a revoked token's open
 * stream closes at once; Last-Event-ID resumes; presence; the drain's reconnect hint.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { App } from "../../server/app";
import { liveHubOf } from "../../server/live/routes";
import { PERMISSION } from "../../src/shared/permissions";
import { auth, createAdmin, createTestApp, DEMO, login } from "./support/app";
import { createTestDatabase, type TestDatabase } from "./support/database";
import { changeOf, openStream, type LiveStream, type SseEvent } from "./support/live-stream";

let testDb: TestDatabase;
let app: App;
let base: string;
let superToken: string;
const streams: LiveStream[] = [];

async function stream(token: string | undefined, headers: Record<string, string> = {}) {
  const opened = await openStream(base, token, headers);
  streams.push(opened);
  return opened;
}

const ready = (event: SseEvent) => event.event === "ready" || event.event === "reset";
const changeTo = (module: string, id: string | number) => (event: SseEvent) =>
  event.event === "change" &&
  changeOf(event).modules.includes(module) &&
  (changeOf(event).ids ?? []).includes(String(id));

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb);
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  superToken = (await login(app, DEMO.superAdmin)).token;
});

afterAll(async () => {
  for (const opened of streams) opened.close();
  await app?.close();
  await testDb?.destroy();
});

describe("the live updates' stream", () => {
  it("is refused without a session (401, the contract's message) and with a bad token", async () => {
    const none = await stream(undefined);
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body)).toMatchObject({ message: "Missing credential key" });
    const bad = await stream("Bearer not.a.token");
    expect(bad.status).toBe(401);
    expect(JSON.parse(bad.body)).toMatchObject({ message: "Invalid credential key" });
  });

  it("sends only the stream's start to a client that does not ask for an event stream", async () => {
    const response = await app.inject({
      method: "GET",
      url: "/v1/api/live/events",
      headers: auth(superToken),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/event-stream/);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.body).toMatch(/event: ready/);
  });

  it("delivers a change made through the API as an event naming the module and the id", async () => {
    const { admin, token } = await createAdmin(app, superToken, [PERMISSION.admin]);
    const watcher = await stream(superToken);
    await watcher.next(ready);
    const renamed = await app.inject({
      method: "PATCH",
      url: "/v1/api/account/admin",
      headers: auth(token),
      payload: { name: "Renamed Live" },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const event = await watcher.next(changeTo("administrators", admin.id));
    expect(changeOf(event)).toEqual({
      modules: ["administrators"],
      ids: [String(admin.id)],
      kind: "changed",
    });
    expect(Number(event.id)).toBeGreaterThan(0);
    // Never a record's contents: the name is nowhere in the stream.
    expect(JSON.stringify(watcher.events)).not.toContain("Renamed Live");
  });

  it("covers raw writers too, one event per statement, and many rows as ids: null", async () => {
    const watcher = await stream(superToken);
    await watcher.next(ready);
    const db = testDb.database.db;
    await db.execute(
      sql`update help_articles set position = position where id in (select id from help_articles limit 2)`,
    );
    const two = await watcher.next(
      (event) => event.event === "change" && changeOf(event).modules.includes("help-articles"),
    );
    expect(changeOf(two).ids?.length).toBeGreaterThan(0);
    await db.execute(
      sql`update users set version = version + 1 where id in (select id from users limit 250)`,
    );
    const many = await watcher.next(
      (event) =>
        event.event === "change" &&
        changeOf(event).modules.includes("users") &&
        changeOf(event).ids === null,
    );
    // One table, every module on it the administrator may read (users, user-approval, …).
    expect(changeOf(many).modules.length).toBeGreaterThan(1);
  });

  it("does not announce a sign-in's last_login_at", async () => {
    const watcher = await stream(superToken);
    const start = await watcher.next(ready);
    const before = watcher.events.length;
    await login(app, DEMO.userDesk);
    // A later change we wait for: by then the sign-in's update has been through the channel.
    await testDb.database.db.execute(
      sql`update help_articles set position = position where id = (select min(id) from help_articles)`,
    );
    await watcher.next((event) => event.event === "change" && event.id !== start.id);
    const after = watcher.events.slice(before);
    expect(
      after.some(
        (event) => event.event === "change" && changeOf(event).modules.includes("administrators"),
      ),
    ).toBe(false);
  });

  it("sends an administrator nothing of a module whose code they lack", async () => {
    const business = await createAdmin(app, superToken, [PERMISSION.business]);
    const watcher = await stream(business.token);
    const everything = await stream(superToken);
    await watcher.next(ready);
    await everything.next(ready);
    const db = testDb.database.db;
    await db.execute(
      sql`update users set version = version + 1 where id = (select min(id) from users)`,
    );
    await db.execute(
      sql`update businesses set name = name where id = (select min(id) from businesses)`,
    );
    await everything.next(
      (event) => event.event === "change" && changeOf(event).modules.includes("businesses"),
    );
    await watcher.next(
      (event) => event.event === "change" && changeOf(event).modules.includes("businesses"),
    );
    expect(
      everything.events.some(
        (event) => event.event === "change" && changeOf(event).modules.includes("users"),
      ),
    ).toBe(true);
    const seen = watcher.events.filter((event) => event.event === "change");
    expect(
      seen.every((event) => changeOf(event).modules.every((m) => m.startsWith("business"))),
    ).toBe(true);
  });

  it("closes a token's open stream at once when it is logged out elsewhere", async () => {
    const { token } = await createAdmin(app, superToken, [PERMISSION.user]);
    const watcher = await stream(token);
    await watcher.next(ready);
    const started = Date.now();
    const out = await app.inject({
      method: "POST",
      url: "/v1/api/auth/logout",
      headers: auth(token),
    });
    expect(out.statusCode, out.body).toBeLessThan(300);
    await watcher.next((event) => event.event === "revoked", 3000);
    await watcher.ended;
    expect(Date.now() - started).toBeLessThan(3000);
    // And it cannot be opened again.
    expect((await stream(token)).status).toBe(401);
  });

  it("closes the streams of an administrator whose credentials change (a ban)", async () => {
    const target = await createAdmin(app, superToken, [PERMISSION.user]);
    const watcher = await stream(target.token);
    await watcher.next(ready);
    await testDb.database.db.execute(
      sql`update administrators set credential_version = credential_version + 1 where id = ${target.admin.id}`,
    );
    await watcher.next((event) => event.event === "revoked", 3000);
    await watcher.ended;
  });

  it("resumes after Last-Event-ID: the events in between are replayed", async () => {
    const first = await stream(superToken);
    const start = await first.next(ready);
    first.close();
    const db = testDb.database.db;
    const [row] = (await db.execute(sql`select min(id)::int as id from businesses`)).rows as Array<{
      id: number;
    }>;
    await db.execute(sql`update businesses set name = name where id = ${row!.id}`);
    await db.execute(
      sql`update help_articles set position = position where id = (select min(id) from help_articles)`,
    );
    // Give the notifications time to arrive before resuming.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const resumed = await stream(superToken, { "last-event-id": start.id! });
    await resumed.next(changeTo("businesses", row!.id));
    await resumed.next(
      (event) => event.event === "change" && changeOf(event).modules.includes("help-articles"),
    );
    await resumed.next((event) => event.event === "ready");
    expect(resumed.events.some((event) => event.event === "reset")).toBe(false);
  });

  it("tells an administrator's answers which change their data is as new as, to resume from", async () => {
    const db = testDb.database.db;
    const [row] = (await db.execute(sql`select min(id)::int as id from businesses`)).rows as Array<{
      id: number;
    }>;
    // A page read before its stream was open …
    const read = await app.inject({
      method: "GET",
      url: `/v1/api/businesses/${row!.id}`,
      headers: auth(superToken),
    });
    expect(read.statusCode, read.body).toBe(200);
    const moment = read.headers["live-event-id"];
    expect(moment).toMatch(/^\d+$/);
    // … a change in between …
    await db.execute(sql`update businesses set name = name where id = ${row!.id}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const later = await app.inject({
      method: "GET",
      url: `/v1/api/businesses/${row!.id}`,
      headers: auth(superToken),
    });
    expect(Number(later.headers["live-event-id"])).toBeGreaterThan(Number(moment));
    // … is told to the stream opened from the read's moment.
    const opened = await stream(superToken, { "last-event-id": String(moment) });
    await opened.next(changeTo("businesses", row!.id));
    await opened.next((event) => event.event === "ready");
    expect(opened.events.some((event) => event.event === "reset")).toBe(false);
    // Nobody else is told how often the campus changes.
    const anonymous = await app.inject({ method: "GET", url: "/v1/api/health" });
    expect(anonymous.headers["live-event-id"]).toBeUndefined();
    const refused = await app.inject({
      method: "GET",
      url: `/v1/api/businesses/${row!.id}`,
      headers: auth("Bearer not.a.token"),
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers["live-event-id"]).toBeUndefined();
  });

  it("answers a malformed or unknown Last-Event-ID with a reset (the console refetches)", async () => {
    for (const id of ["abc", "-1", "1e3", "99999999999999999999"]) {
      const opened = await stream(superToken, { "last-event-id": id });
      await opened.next((event) => event.event === "reset");
      opened.close();
    }
    const tooLong = await stream(superToken, { "last-event-id": "1".repeat(100) });
    await tooLong.next((event) => event.event === "reset");
  });

  it("tells who else has a record open, to those who may read it", async () => {
    const desk = await createAdmin(app, superToken, [PERMISSION.business], { name: "Desk Viewer" });
    const watcher = await stream(superToken);
    await watcher.next(ready);
    const [row] = (await testDb.database.db.execute(sql`select min(id)::int as id from businesses`))
      .rows as Array<{ id: number }>;
    const id = String(row!.id);
    const opened = await app.inject({
      method: "POST",
      url: "/v1/api/live/presence",
      headers: auth(desk.token),
      payload: { module: "businesses", id, open: true },
    });
    expect(opened.statusCode, opened.body).toBe(200);
    const event = await watcher.next((e) => e.event === "presence");
    expect(JSON.parse(event.data)).toEqual({
      module: "businesses",
      id,
      viewers: [{ id: desk.admin.id, name: "Desk Viewer" }],
    });
    const mine = await app.inject({
      method: "POST",
      url: "/v1/api/live/presence",
      headers: auth(superToken),
      payload: { module: "businesses", id, open: true },
    });
    expect(mine.json()).toEqual({ viewers: [{ id: desk.admin.id, name: "Desk Viewer" }] });

    const refused = await app.inject({
      method: "POST",
      url: "/v1/api/live/presence",
      headers: auth(desk.token),
      payload: { module: "users", id: "1", open: true },
    });
    expect(refused.statusCode).toBe(403);
    for (const payload of [
      { module: "nope", id: "1", open: true },
      { module: "businesses", id: "1%", open: true },
      { module: "businesses", id: "a\u0000b", open: true },
      { module: "businesses", id: "x".repeat(65), open: true },
      { module: "businesses", id: "1", open: "yes" },
      { module: "businesses", id: "1", open: true, extra: 1 },
    ]) {
      const bad = await app.inject({
        method: "POST",
        url: "/v1/api/live/presence",
        headers: auth(desk.token),
        payload,
      });
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it("has the triggers on the table of every bound module", async () => {
    const rows = (
      await testDb.database.db.execute(
        sql`select c.relname as table, count(*)::int as triggers from pg_trigger t join pg_class c on c.oid = t.tgrelid where t.tgname in ('live_insert', 'live_update', 'live_delete') group by c.relname`,
      )
    ).rows as Array<{ table: string; triggers: number }>;
    const found = new Map(rows.map((row) => [row.table, row.triggers]));
    for (const table of liveHubOf(app)!.tables()) expect(found.get(table), table).toBe(3);
  });

  it("tells open streams to reconnect when the instance stops", async () => {
    const watcher = await stream(superToken);
    await watcher.next(ready);
    liveHubOf(app)!.drain();
    await watcher.next((event) => event.event === "reconnect");
    await watcher.ended;
  });
});
