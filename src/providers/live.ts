/**
 * Live updates in the console (docs/live-updates.md): one stream per signed-in console,
 * `GET /v1/api/live/events`, read with fetch (EventSource cannot send the Authorization header,
 * and the token never goes in a URL), opened while something listens and closed after.
 * A dropped stream reconnects after the server's `retry:` with `Last-Event-ID`, so nothing is
 * missed; `reset` (the server no longer knows what was missed) asks every listener to refetch.
 * `revoked` or a 401 ends it: the session is over, and the console's next request says so.
 *
 * Refine's LiveProvider (`liveProvider`) sits on it: channel `resources/<module>`, types
 * created/updated/deleted, payload ids. An administrator is not told of their own change as
 * someone else's: every mutation the console runs (Refine's create/update/delete and the kit's
 * actions, all React Query mutations: `ownChangesCache`) marks the ids it names as this console's
 * own from before it is sent (the notification often arrives before the answer) until
 * OWN_CHANGE_MS after it settled; `publish` (Refine's, after a create) adds the new record's id.
 *
 * A page read before its stream was open must not miss a change made in between (a page loaded
 * on a form, which does not listen, then the record's page, which does): every answer says which
 * change its data is at least as new as (`Live-Event-Id`), and the console's first stream starts
 * from the earliest it read (`noteAnswer`), as a reconnection resumes from its last event.
 */
import type { LiveEvent, LiveProvider } from "@refinedev/core";
import { MutationCache } from "@tanstack/react-query";

import { LIVE_MOMENT_HEADER } from "../shared/live";
import { API_BASE, currentLanguage, watchAnswers } from "./http";
import { IDLE_HEADER, idleSeconds } from "./idle";
import { getToken } from "./session";

export const LIVE_EVENTS_PATH = "/api/live/events";
export const LIVE_PRESENCE_PATH = "/api/live/presence";
/** A change this console made itself is not news for this long. */
export const OWN_CHANGE_MS = 10_000;
/** Wait this long before closing a stream no one listens to (a page change re-subscribes). */
const LINGER_MS = 5_000;
const DEFAULT_RETRY_MS = 3_000;
const MAX_RETRY_MS = 30_000;
/**
 * An answer's Live-Event-Id older than this is not resumed from: half the server's RING_AGE_MS,
 * so the server still knows what came after it (an older one would only earn a reset).
 */
export const SINCE_MS = 5 * 60_000;

export type LiveKind = "created" | "changed" | "deleted";

/** A `change` event: the modules the record(s) belong to, their ids (null: many), the kind. */
export interface LiveChange {
  modules: string[];
  ids: string[] | null;
  kind: LiveKind;
  /** Whether this console's administrator made the change, when the server knows who did. */
  own?: boolean;
}

export interface LiveViewer {
  id: number;
  name: string;
}

export interface LivePresence {
  module: string;
  id: string;
  viewers: LiveViewer[];
}

export interface LiveListener {
  onChange?(change: LiveChange): void;
  onPresence?(presence: LivePresence): void;
  /** The events since the last one are not all known: refetch. */
  onReset?(): void;
}

export interface LiveConnectionOptions {
  fetch?: typeof fetch;
  base?: string;
  token?: () => string | undefined;
  /** The first reconnection's wait when the server named none (tests: short). */
  retryMs?: number;
}

interface SseBlock {
  event: string;
  id?: string;
  data: string;
  retry?: number;
}

/** Splits `buffer` into complete server-sent event blocks; returns them and the rest. */
export function parseSse(buffer: string): { blocks: SseBlock[]; rest: string } {
  const blocks: SseBlock[] = [];
  const text = buffer.replace(/\r\n?/g, "\n");
  let rest = text;
  let end: number;
  while ((end = rest.indexOf("\n\n")) >= 0) {
    const raw = rest.slice(0, end);
    rest = rest.slice(end + 2);
    const block: SseBlock = { event: "message", data: "" };
    let any = false;
    for (const line of raw.split("\n")) {
      if (line === "" || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") block.event = value;
      else if (field === "data") block.data += block.data ? `\n${value}` : value;
      else if (field === "id") block.id = value;
      else if (field === "retry" && /^\d+$/.test(value)) block.retry = Number(value);
      else continue;
      any = true;
    }
    if (any) blocks.push(block);
  }
  return { blocks, rest };
}

export class LiveConnection {
  private readonly listeners = new Set<LiveListener>();
  private readonly own = new Map<string, number>();
  private abort: AbortController | undefined;
  private running = false;
  /** Each run of the loop has its own number: a stopped one never comes back to life. */
  private generation = 0;
  private linger: ReturnType<typeof setTimeout> | undefined;
  private retryMs: number;
  private failures = 0;
  /** The last event id received: what a reconnection resumes from. */
  lastEventId: string | undefined;
  /** Before any stream: the earliest Live-Event-Id answered, and when (see noteAnswer). */
  private since: { id: number; at: number } | undefined;
  /** Whether the stream is open now. */
  connected = false;
  /** Set by the console (enable): its presence and dashboard use this connection. */
  enabled = false;
  private readonly options: Required<Omit<LiveConnectionOptions, "retryMs">>;

  constructor(options: LiveConnectionOptions = {}) {
    this.options = {
      fetch: options.fetch ?? ((...args) => fetch(...args)),
      base: options.base ?? API_BASE,
      token: options.token ?? getToken,
    };
    this.retryMs = options.retryMs ?? DEFAULT_RETRY_MS;
  }

  /** Listens (opening the stream if needed); the returned function stops listening. */
  listen(listener: LiveListener): () => void {
    this.listeners.add(listener);
    if (this.linger) clearTimeout(this.linger);
    this.linger = undefined;
    if (!this.running) {
      this.running = true;
      void this.run(++this.generation);
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && !this.linger) {
        this.linger = setTimeout(() => {
          this.linger = undefined;
          if (this.listeners.size === 0) this.stop();
        }, LINGER_MS);
      }
    };
  }

  /** The console's connection: its live pieces use it, and it hears every answer's headers. */
  enable() {
    if (this.enabled) return;
    this.enabled = true;
    watchAnswers((headers) => this.noteAnswer(headers));
  }

  /**
   * An answer's `Live-Event-Id`: its data is at least as new as that change. Until a stream has
   * been open, the earliest of them (of the last SINCE_MS) is where the first stream starts, so
   * what changed after the page read its data is told even though nothing listened then.
   */
  noteAnswer(headers: Headers) {
    if (this.lastEventId !== undefined) return;
    const value = headers.get(LIVE_MOMENT_HEADER);
    if (value === null || !/^\d{1,15}$/.test(value)) return;
    const id = Number(value);
    const now = Date.now();
    if (!this.since || id < this.since.id || now - this.since.at > SINCE_MS) {
      this.since = { id, at: now };
    }
  }

  /** What the next stream resumes from: its last event, else the earliest fresh answer's. */
  private resumeFrom(): string | undefined {
    if (this.lastEventId !== undefined) return this.lastEventId;
    if (this.since && Date.now() - this.since.at <= SINCE_MS) return String(this.since.id);
    return undefined;
  }

  /** Records `ids` of `module` as this console's own change (see OWN_CHANGE_MS). */
  markOwn(module: string, ids: Array<string | number>) {
    const until = Date.now() + OWN_CHANGE_MS;
    for (const id of ids) this.own.set(`${module}:${String(id)}`, until);
  }

  /** Marks what a mutation names (its `id`, `ids`, the ids in its `url`) as this console's own. */
  markOwnMutation(variables: unknown, forMs = OWN_CHANGE_MS) {
    if (typeof variables !== "object" || variables === null) return;
    const { id, ids, url } = variables as { id?: unknown; ids?: unknown; url?: unknown };
    const found: string[] = [];
    if (typeof id === "string" || typeof id === "number") found.push(String(id));
    if (Array.isArray(ids)) found.push(...ids.map(String));
    if (typeof url === "string") {
      // `/api/users/5/vip`: every segment after the collection that looks like an id.
      found.push(...url.split(/[/?#]/).filter((segment) => /^\d{1,19}$/.test(segment)));
    }
    const until = Date.now() + forMs;
    for (const one of found)
      this.own.set(`*:${one}`, Math.max(until, this.own.get(`*:${one}`) ?? 0));
  }

  private isOwn(change: LiveChange): boolean {
    // The server knows who made the kit's changes: another administrator's change within
    // OWN_CHANGE_MS of this console's own on the same record is still news.
    if (change.own !== undefined) return change.own;
    if (!change.ids || change.ids.length === 0) return false;
    const now = Date.now();
    if (this.own.size > 1000) {
      for (const [key, until] of this.own) if (until <= now) this.own.delete(key);
    }
    return change.ids.every(
      (id) =>
        (this.own.get(`*:${id}`) ?? 0) > now ||
        change.modules.some((module) => (this.own.get(`${module}:${id}`) ?? 0) > now),
    );
  }

  /** Closes the stream and stops reconnecting. */
  stop() {
    this.running = false;
    this.generation += 1;
    this.connected = false;
    this.abort?.abort();
    this.abort = undefined;
  }

  private emit(block: SseBlock) {
    if (block.id !== undefined) this.lastEventId = block.id;
    if (block.retry !== undefined) this.retryMs = Math.min(block.retry, MAX_RETRY_MS);
    let data: unknown;
    try {
      data = block.data ? JSON.parse(block.data) : {};
    } catch {
      return;
    }
    const listeners = [...this.listeners];
    if (block.event === "change") {
      const change = data as LiveChange;
      if (!Array.isArray(change.modules) || this.isOwn(change)) return;
      for (const listener of listeners) listener.onChange?.(change);
    } else if (block.event === "presence") {
      for (const listener of listeners) listener.onPresence?.(data as LivePresence);
    } else if (block.event === "reset") {
      for (const listener of listeners) listener.onReset?.();
    } else if (block.event === "revoked") {
      this.stop();
    }
  }

  private async run(generation: number) {
    const current = () => this.running && generation === this.generation;
    while (current()) {
      const token = this.options.token();
      if (!token) {
        this.running = false;
        return;
      }
      const abort = new AbortController();
      this.abort = abort;
      let status = 0;
      try {
        const headers: Record<string, string> = {
          Authorization: token,
          Accept: "text/event-stream",
          "Accept-Language": currentLanguage(),
          [IDLE_HEADER]: String(idleSeconds()),
        };
        const resume = this.resumeFrom();
        if (resume !== undefined) headers["Last-Event-ID"] = resume;
        const response = await this.options.fetch(`${this.options.base}${LIVE_EVENTS_PATH}`, {
          headers,
          signal: abort.signal,
          cache: "no-store",
        });
        status = response.status;
        if (response.ok && response.body) {
          this.connected = true;
          // Resumed from an answer's moment: what a reconnection resumes from until an event.
          this.lastEventId ??= resume;
          this.since = undefined;
          this.failures = 0;
          const reader = response.body.getReader();
          const decoder = new TextDecoder();
          let buffer = "";
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            buffer += decoder.decode(value, { stream: true });
            const { blocks, rest } = parseSse(buffer);
            buffer = rest;
            for (const block of blocks) this.emit(block);
            if (!current()) break;
          }
        }
      } catch {
        // Dropped (network, the instance stopped): reconnect below.
      }
      if (generation === this.generation) this.connected = false;
      // The session is over (401) or this administrator may not (403): the next request says so.
      if (!current()) return;
      if (status === 401 || status === 403) {
        this.running = false;
        return;
      }
      this.failures += 1;
      const wait = Math.min(this.retryMs * 2 ** Math.max(0, this.failures - 2), MAX_RETRY_MS);
      await new Promise((resolve) => setTimeout(resolve, wait * (0.8 + Math.random() * 0.4)));
    }
  }
}

/** The console's one connection. */
export const liveConnection = new LiveConnection();

/**
 * The connection the console's own live pieces (presence, the dashboard) use: the console's once
 * it called `liveConnection.enable()`, none before (a page rendered alone in a test), when they
 * stay quiet.
 */
export function consoleLiveConnection(): LiveConnection | undefined {
  return liveConnection.enabled ? liveConnection : undefined;
}

const TYPES: Record<LiveKind, string> = {
  created: "created",
  changed: "updated",
  deleted: "deleted",
};

/** Refine's LiveProvider over `connection`. */
export function createLiveProvider(connection: LiveConnection = liveConnection): LiveProvider {
  return {
    subscribe({ channel, types, callback, params }) {
      const resource = channel.replace(/^resources\//, "");
      const wanted = [params?.id, ...(params?.ids ?? [])]
        .filter((id) => id !== undefined && id !== null)
        .map(String);
      const accepts = (type: string) => types.includes("*") || types.includes(type);
      return connection.listen({
        onChange(change) {
          if (!change.modules.includes(resource)) return;
          const type = TYPES[change.kind];
          if (!type || !accepts(type)) return;
          if (wanted.length > 0 && change.ids && !change.ids.some((id) => wanted.includes(id))) {
            return;
          }
          callback({
            channel,
            type,
            payload: { ids: change.ids ?? undefined },
            date: new Date(),
          });
        },
        onReset() {
          callback({ channel, type: "*", payload: {}, date: new Date() });
        },
      });
    },
    unsubscribe(subscription: unknown) {
      if (typeof subscription === "function") (subscription as () => void)();
    },
    publish(event: LiveEvent) {
      const resource = event.channel.replace(/^resources\//, "");
      const ids = event.payload?.ids ?? [];
      connection.markOwn(
        resource,
        ids.map((id) => String(id)),
      );
    },
  };
}

export const liveProvider = createLiveProvider();

/** A mutation the console has running is its own for at most this long before it settles. */
const MUTATION_MS = 120_000;

/**
 * React Query's mutation cache for the console's client: every mutation marks the ids it names
 * as this console's own change (see markOwnMutation) before it is sent, and again when it settles.
 */
export function ownChangesCache(connection: LiveConnection = liveConnection): MutationCache {
  return new MutationCache({
    onMutate: (variables) => connection.markOwnMutation(variables, MUTATION_MS),
    onSettled: (_data, _error, variables) => connection.markOwnMutation(variables),
  });
}
