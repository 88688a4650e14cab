/**
 * Live updates (docs/live-updates.md): one instance's side of the stream of changes.
 *
 * - **Where changes come from.** Migration 0037's statement-level triggers NOTIFY channel `live`
 *   with the table, the kind of change and at most 200 ids (null: many), numbered by a database
 *   sequence, so every instance gives an event the same number. One listening connection per
 *   instance: a dedicated client on PostgreSQL; on the embedded store the pool's one connection,
 *   which PGlite's single backend delivers every notification to.
 * - **Who gets what.** An event is sent to a stream only for the modules (several may share a
 *   table: users → users, user-approval, dormant-accounts) whose permission its administrator
 *   holds; it names the modules, the ids and the kind, never a record's contents.
 * - **Resuming.** A ring buffer (RING_SIZE events, RING_AGE_MS) replays what a reconnecting
 *   console missed after its Last-Event-ID; an id the buffer no longer covers (or a malformed one)
 *   gets a `reset` event: the console refetches.
 * - **Revocation.** A session ended anywhere (logout, ended by the super administrator, idle) or
 *   an administrator changed (password, status, permissions) reaches every instance as a
 *   notification too; the streams of that administrator are checked against the database and
 *   closed at once when their session is over. Every CHECK_EVERY_MS all streams are checked
 *   (idleness and expiry end a session without a write).
 * - **Presence.** Who has a record's page open, told to every instance through the same channel
 *   and kept for PRESENCE_TTL_MS after the last heartbeat.
 * - **Drain.** Every stream gets `retry:` and a `reconnect` event and is closed (preClose).
 */
import type { ServerResponse } from "node:http";

import { and, eq, inArray } from "drizzle-orm";
import { getTableName } from "drizzle-orm";
import pg from "pg";

import { holdsPermission } from "../../src/shared/permissions";
import type { Database, Db } from "../db";
import { administrators, adminSessions, type AdministratorRow } from "../db/schema";
import type { BoundModule } from "../kit/bind";

/** The NOTIFY channel of migration 0037. */
export const CHANNEL = "live";
/** Events kept for Last-Event-ID, at most this many … */
export const RING_SIZE = 5000;
/** … and at most this old. */
export const RING_AGE_MS = 10 * 60_000;
/** A comment line on every stream this often, so proxies see traffic (HAProxy: 60 s). */
export const HEARTBEAT_MS = 15_000;
/** How often every stream's session is checked (idle, expired) without a notification. */
export const CHECK_EVERY_MS = 60_000;
/** A presence not renewed within this long is gone (the console renews every 20 s). */
export const PRESENCE_TTL_MS = 45_000;
/** A stream whose client reads slower than this many unsent bytes is closed (it resumes). */
export const MAX_BUFFERED_BYTES = 64 * 1024;
/** What a console is told to wait before reconnecting after a drain. */
export const RECONNECT_MS = 1000;

export type ChangeKind = "created" | "changed" | "deleted";
const KINDS: Record<string, ChangeKind> = { i: "created", u: "changed", d: "deleted" };

/** One change as the triggers announce it. */
export interface LiveEvent {
  id: number;
  table: string;
  kind: ChangeKind;
  /** The changed records' ids (as strings); null: more than 200 ("many changed"). */
  ids: string[] | null;
  /** The administrator whose change it was (the kit's changes: app.actor), else null. */
  actor: number | null;
  at: number;
}

interface ModuleRef {
  name: string;
  permission: number | null;
}

interface Stream {
  key: number;
  adminId: number;
  jti: string;
  version: number;
  admin: AdministratorRow;
  res: ServerResponse;
  idleMs: number;
  /** Text not yet written: the events of one turn of the event loop go out in one write. */
  pending: string;
}

interface Viewer {
  adminId: number;
  name: string;
  at: number;
}

export interface PresenceViewer {
  id: number;
  name: string;
}

export interface LiveHubOptions {
  database: Database;
  modules: readonly BoundModule[];
  /** SESSION_IDLE_MINUTES in ms: a stream whose session was idle this long is closed. */
  idleMs: number;
  log: { warn(object: object, message: string): void };
}

const toIds = (value: unknown): string[] | null =>
  Array.isArray(value) ? value.map((id) => String(id)) : null;

/**
 * `data:` of a record's event as a stream of `modules` sees it; `own`, when the change's
 * administrator is known, whether it is the stream's (their console is not told of their own
 * change as someone else's; with no `own`, the console guesses from its own mutations).
 */
function changeLine(event: LiveEvent, modules: string[], adminId: number) {
  const own = event.actor === null ? undefined : event.actor === adminId;
  const data = JSON.stringify({ modules, ids: event.ids, kind: event.kind, own });
  return `id: ${event.id}\nevent: change\ndata: ${data}\n\n`;
}

export class LiveHub {
  private readonly db: Db;
  private readonly database: Database;
  private readonly byTable = new Map<string, ModuleRef[]>();
  private readonly permissionOf = new Map<string, number | null>();
  private readonly ring: LiveEvent[] = [];
  private readonly streams = new Map<number, Stream>();
  private readonly presence = new Map<string, Map<string, Viewer>>();
  private nextKey = 1;
  /** The sequence's value when this instance started listening: events before it were missed. */
  private baseline = 0;
  /** Whether the ring lost events at its start (trimmed, or the listener reconnected). */
  private trimmed = false;
  private listener: pg.Client | undefined;
  private stopped = false;
  private timers: NodeJS.Timeout[] = [];
  private readonly options: LiveHubOptions;
  /** Delivered events (the bench reads it). */
  delivered = 0;

  constructor(options: LiveHubOptions) {
    this.options = options;
    this.database = options.database;
    this.db = options.database.db;
    for (const bound of options.modules) {
      const table = getTableName(bound.binding.table);
      const ref = { name: bound.module.name, permission: bound.module.permission };
      this.byTable.set(table, [...(this.byTable.get(table) ?? []), ref]);
      this.permissionOf.set(ref.name, ref.permission);
    }
  }

  /** The modules a change of `table` concerns (a test checks every one has the triggers). */
  tables(): string[] {
    return [...this.byTable.keys()];
  }

  hasModule(name: string): boolean {
    return this.permissionOf.has(name);
  }

  /** Whether `admin` may read module `name`. */
  mayRead(admin: AdministratorRow, name: string): boolean {
    const permission = this.permissionOf.get(name);
    return permission !== undefined && holdsPermission(admin, permission);
  }

  get size() {
    return this.streams.size;
  }

  async start() {
    await this.listen();
    this.timers.push(setInterval(() => this.heartbeat(), HEARTBEAT_MS).unref());
    this.timers.push(setInterval(() => void this.checkAll(), CHECK_EVERY_MS).unref());
  }

  private async readBaseline() {
    const { rows } = await this.database.pool.query<{ value: string }>(
      "select last_value::text as value from live_event_seq",
    );
    this.baseline = Number(rows[0]?.value ?? 0);
  }

  private async listen() {
    const onNotification = (message: pg.Notification) => {
      if (message.channel === CHANNEL && message.payload) this.receive(message.payload);
    };
    if (this.database.kind === "embedded") {
      // PGlite is one backend behind every connection: the pool's (one) client gets them all.
      const pool = this.database.pool;
      pool.on("connect", (client) => {
        client.on("notification", onNotification);
        void pool.query(`LISTEN ${CHANNEL}`).catch(() => undefined);
      });
      const client = await pool.connect();
      try {
        client.on("notification", onNotification);
        await client.query(`LISTEN ${CHANNEL}`);
      } finally {
        client.release();
      }
      await this.readBaseline();
      return;
    }
    const connect = async () => {
      const client = new pg.Client(this.database.pool.options as pg.ClientConfig);
      client.on("notification", onNotification);
      client.on("error", (error) => {
        this.options.log.warn({ err: error }, "live updates: listener connection lost");
        void client.end().catch(() => undefined);
      });
      client.on("end", () => {
        if (this.stopped || this.listener !== client) return;
        this.listener = undefined;
        setTimeout(() => void reconnect(), 1000).unref();
      });
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      this.listener = client;
    };
    const reconnect = async () => {
      if (this.stopped) return;
      try {
        await connect();
        // Whatever happened while it was away is unknown: every console refetches.
        this.trimmed = true;
        this.broadcast("event: reset\ndata: {}\n\n");
      } catch {
        setTimeout(() => void reconnect(), 1000).unref();
      }
    };
    await connect();
    await this.readBaseline();
  }

  /** One notification from channel `live`. */
  receive(payload: string) {
    let message: { e?: unknown; t?: unknown; k?: unknown; ids?: unknown; a?: unknown } & Record<
      string,
      unknown
    >;
    try {
      message = JSON.parse(payload) as typeof message;
    } catch {
      return;
    }
    const table = message.t;
    if (table === "presence") return this.receivePresence(message);
    if (table === "admin_sessions") {
      void this.check(toIds(message.ids)?.map(Number) ?? null);
      return;
    }
    if (typeof table !== "string" || typeof message.e !== "number") return;
    const modules = this.byTable.get(table);
    const kind = KINDS[String(message.k)];
    if (!modules || !kind) return;
    const event: LiveEvent = {
      id: message.e,
      table,
      kind,
      ids: toIds(message.ids),
      actor:
        typeof message.a === "string" && /^\d{1,9}$/.test(message.a) ? Number(message.a) : null,
      at: Date.now(),
    };
    this.remember(event);
    // An administrator changed (permissions, status, password): check their streams first.
    if (table === "administrators") void this.check(event.ids?.map(Number) ?? null);
    const lines = new Map<string, string>();
    for (const stream of this.streams.values()) {
      const names = modules.filter((m) => holdsPermission(stream.admin, m.permission));
      if (names.length === 0) continue;
      const own = event.actor === stream.admin.id;
      const key = `${own ? "own:" : ""}${names.map((m) => m.name).join(",")}`;
      let line = lines.get(key);
      if (!line) {
        line = changeLine(
          event,
          names.map((m) => m.name),
          stream.admin.id,
        );
        lines.set(key, line);
      }
      this.write(stream, line);
      this.delivered += 1;
    }
  }

  private remember(event: LiveEvent) {
    this.ring.push(event);
    const oldest = Date.now() - RING_AGE_MS;
    let drop = 0;
    while (
      drop < this.ring.length &&
      (this.ring.length - drop > RING_SIZE || this.ring[drop]!.at < oldest)
    ) {
      drop += 1;
    }
    if (drop > 0) {
      this.ring.splice(0, drop);
      this.trimmed = true;
    }
  }

  /**
   * What a console reconnecting with `lastEventId` missed: the events after it, or "reset" when
   * they are no longer all known (the id is older than the ring, or malformed: undefined).
   */
  replay(lastEventId: number | undefined): LiveEvent[] | "reset" {
    if (lastEventId === undefined) return "reset";
    const at = this.ring.findIndex((event) => event.id === lastEventId);
    if (at >= 0) return this.ring.slice(at + 1);
    // Not in the ring: fine only when nothing was lost since this instance began listening and
    // the id is not older than that (an id from another instance's same numbering).
    if (!this.trimmed && lastEventId >= this.baseline) {
      return this.ring.filter((event) => event.id > lastEventId);
    }
    return "reset";
  }

  /** The newest event id this instance knows (what a fresh stream starts from). */
  latestId(): number {
    return this.ring.at(-1)?.id ?? this.baseline;
  }

  /**
   * Takes over `res` as the stream of `admin`'s session `jti`: the start, what it missed after
   * `lastEventId` (absent: nothing to resume; malformed: a reset), then every change it may see
   * (`follow`; else the stream ends after its start).
   */
  open(
    res: ServerResponse,
    admin: AdministratorRow,
    session: { jti: string; version: number },
    lastEventId: string | undefined,
    follow = true,
  ) {
    const stream: Stream = {
      key: this.nextKey++,
      adminId: admin.id,
      jti: session.jti,
      version: session.version,
      admin,
      res,
      idleMs: this.options.idleMs,
      pending: "",
    };
    this.streams.set(stream.key, stream);
    res.on("close", () => this.streams.delete(stream.key));
    let start = `retry: 3000\n: live\n\n`;
    if (lastEventId === undefined) {
      start += `id: ${this.latestId()}\nevent: ready\ndata: {}\n\n`;
    } else {
      const parsed = /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : undefined;
      const missed = this.replay(parsed);
      if (missed === "reset") {
        start += `id: ${this.latestId()}\nevent: reset\ndata: {}\n\n`;
      } else {
        for (const event of missed) {
          const names = (this.byTable.get(event.table) ?? [])
            .filter((m) => holdsPermission(admin, m.permission))
            .map((m) => m.name);
          if (names.length > 0) start += changeLine(event, names, admin.id);
        }
        start += `event: ready\ndata: {}\n\n`;
      }
    }
    if (!follow) {
      // A client that did not ask for a stream gets its start only (a script checking it).
      this.close(stream, start);
      return stream.key;
    }
    this.write(stream, start);
    return stream.key;
  }

  private write(stream: Stream, text: string) {
    const { res } = stream;
    if (res.destroyed || res.writableEnded) return;
    // Several notifications often arrive in one read of the listener's socket: one write each
    // per stream cost a system call apiece, so a turn's text goes out at once (setImmediate).
    if (stream.pending === "") this.dirty.add(stream);
    stream.pending += text;
    this.flushSoon();
  }

  private readonly dirty = new Set<Stream>();
  private flushing = false;

  private flushSoon() {
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => {
      this.flushing = false;
      const streams = [...this.dirty];
      this.dirty.clear();
      for (const stream of streams) this.flush(stream);
    });
  }

  private flush(stream: Stream) {
    const { res } = stream;
    const text = stream.pending;
    stream.pending = "";
    this.dirty.delete(stream);
    if (!text || res.destroyed || res.writableEnded) return;
    if (res.writableLength > MAX_BUFFERED_BYTES) {
      // A console that does not read: it reconnects and resumes from its last event id.
      this.close(stream, "event: reconnect\ndata: {}\n\n");
      return;
    }
    res.write(text);
  }

  private close(stream: Stream, last?: string) {
    this.streams.delete(stream.key);
    const text = stream.pending + (last ?? "");
    stream.pending = "";
    this.dirty.delete(stream);
    const { res } = stream;
    if (res.destroyed || res.writableEnded) return;
    res.end(text);
  }

  private broadcast(text: string) {
    for (const stream of this.streams.values()) this.write(stream, text);
  }

  private heartbeat() {
    this.broadcast(": heartbeat\n\n");
    this.expirePresence();
  }

  /**
   * Checks the streams of `adminIds` (null: all) against the database: a session ended, expired
   * or idle too long, or an administrator no longer active or with a new credential version,
   * closes the stream (`event: revoked`); a change of permissions is taken on.
   */
  async check(adminIds: number[] | null) {
    const streams = [...this.streams.values()].filter(
      (stream) => adminIds === null || adminIds.includes(stream.adminId),
    );
    if (streams.length === 0) return;
    try {
      for (let from = 0; from < streams.length; from += 500) {
        const part = streams.slice(from, from + 500);
        const rows = await this.db
          .select({ admin: administrators, session: adminSessions })
          .from(adminSessions)
          .innerJoin(administrators, eq(administrators.id, adminSessions.adminId))
          .where(and(inArray(adminSessions.jti, [...new Set(part.map((s) => s.jti))])));
        const byJti = new Map(rows.map((row) => [row.session.jti, row]));
        const now = Date.now();
        for (const stream of part) {
          const row = byJti.get(stream.jti);
          const over =
            !row ||
            row.session.adminId !== stream.adminId ||
            row.session.endedAt !== null ||
            row.session.expiresAt.getTime() <= now ||
            now - row.session.lastSeenAt.getTime() > stream.idleMs ||
            row.admin.status !== "active" ||
            row.admin.credentialVersion !== stream.version;
          if (over) this.close(stream, "event: revoked\ndata: {}\n\n");
          else stream.admin = row.admin;
        }
      }
    } catch (error) {
      this.options.log.warn({ err: error }, "live updates: could not check the open streams");
    }
  }

  private checkAll() {
    return this.check(null);
  }

  // Presence ----------------------------------------------------------------------------------

  /** Tells every instance that `admin` (session `jti`) has record `id` of `module` open or not. */
  async announce(admin: AdministratorRow, jti: string, module: string, id: string, open: boolean) {
    const payload = JSON.stringify({
      t: "presence",
      a: admin.id,
      n: admin.name.slice(0, 200),
      s: jti,
      m: module,
      r: id,
      o: open,
    });
    await this.database.pool.query("select pg_notify($1, $2)", [CHANNEL, payload]);
  }

  private receivePresence(message: Record<string, unknown>) {
    const { a, n, s, m, r, o } = message;
    if (typeof a !== "number" || typeof n !== "string" || typeof s !== "string") return;
    if (typeof m !== "string" || typeof r !== "string" || !this.permissionOf.has(m)) return;
    const key = `${m}:${r}`;
    const viewers = this.presence.get(key) ?? new Map<string, Viewer>();
    const had = viewers.has(s);
    if (o === true) viewers.set(s, { adminId: a, name: n, at: Date.now() });
    else viewers.delete(s);
    if (viewers.size > 0) this.presence.set(key, viewers);
    else this.presence.delete(key);
    if (had !== (o === true)) this.tellPresence(m, r);
  }

  /** Who else than `adminId` has record `id` of `module` open. */
  viewers(module: string, id: string, adminId: number): PresenceViewer[] {
    const seen = new Map<number, string>();
    for (const viewer of this.presence.get(`${module}:${id}`)?.values() ?? []) {
      if (viewer.adminId !== adminId) seen.set(viewer.adminId, viewer.name);
    }
    return [...seen].map(([id, name]) => ({ id, name })).sort((x, y) => x.id - y.id);
  }

  private tellPresence(module: string, id: string) {
    for (const stream of this.streams.values()) {
      if (!this.mayRead(stream.admin, module)) continue;
      const data = JSON.stringify({
        module,
        id,
        viewers: this.viewers(module, id, stream.adminId),
      });
      this.write(stream, `event: presence\ndata: ${data}\n\n`);
    }
  }

  private expirePresence() {
    const oldest = Date.now() - PRESENCE_TTL_MS;
    for (const [key, viewers] of this.presence) {
      let changed = false;
      for (const [session, viewer] of viewers) {
        if (viewer.at < oldest) {
          viewers.delete(session);
          changed = true;
        }
      }
      if (viewers.size === 0) this.presence.delete(key);
      if (changed) {
        const split = key.indexOf(":");
        this.tellPresence(key.slice(0, split), key.slice(split + 1));
      }
    }
  }

  // Stopping ----------------------------------------------------------------------------------

  /** The drain: every console is told to reconnect (elsewhere) shortly, and its stream closed. */
  drain() {
    for (const stream of [...this.streams.values()]) {
      this.close(stream, `retry: ${RECONNECT_MS}\nevent: reconnect\ndata: {}\n\n`);
    }
  }

  async stop() {
    this.stopped = true;
    this.drain();
    for (const timer of this.timers) clearInterval(timer);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
  }
}
