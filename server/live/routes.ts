/**
 * The live updates' routes (docs/live-updates.md):
 * - `GET /v1/api/live/events`: a server-sent events stream of the changes to the records of the
 *   modules the administrator may read (`change`: modules, ids, kind), `presence`, `reset` (refetch
 *   everything), `revoked` (the session is over), `reconnect` (the instance is stopping). Any
 *   session; the console sends its Authorization header with fetch (EventSource cannot), never
 *   the token in the URL. `Last-Event-ID` resumes.
 * - `POST /v1/api/live/presence`: "I have this record open" (renewed every 20 s) or "closed";
 *   answers who else has it open.
 */
import type { FastifyInstance } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";

import { currentAdmin, noPermissionMessage } from "../auth/access";
import type { Database } from "../db";
import { HttpError } from "../errors";
import type { RouteDeps } from "../http/deps";
import { BOUND_MODULES } from "../modules";
import { LIVE_MOMENT_HEADER } from "../../src/shared/live";
import { errorResponses } from "../../src/shared/schemas/common";
import { LiveHub } from "./hub";

/** Each app's hub, by its HTTP server (the same in every plugin scope). */
const hubs = new WeakMap<object, LiveHub>();

/** The live updates of `app` (tests, the bench). */
export function liveHubOf(app: FastifyInstance): LiveHub | undefined {
  return hubs.get(app.server);
}

declare module "fastify" {
  interface FastifyRequest {
    /** The newest live event this instance knew when the request began (installLiveMoment). */
    liveMoment: number | null;
  }
}

/**
 * Every answer to a signed-in administrator says which change its data is at least as new as:
 * the newest live event this instance knew when the request began (`Live-Event-Id`). A console
 * whose stream is not yet open (a page just loaded) opens it from the earliest such id it read,
 * so a change made between its reads and its stream is not missed (docs/live-updates.md). Taken
 * before the handler reads anything: a change it cannot see yet is after the id, never before.
 * Nobody else is told: the id says how often the campus changes.
 */
export function installLiveMoment(app: FastifyInstance) {
  app.decorateRequest("liveMoment", null);
  app.addHook("onRequest", (request, _reply, done) => {
    request.liveMoment = hubs.get(app.server)?.latestId() ?? null;
    done();
  });
  app.addHook("onSend", async (request, reply) => {
    if (request.admin && request.liveMoment !== null) {
      reply.header(LIVE_MOMENT_HEADER, String(request.liveMoment));
    }
  });
}

/** A record id as the console's paths carry it. */
const RECORD_ID = /^[A-Za-z0-9_-]{1,64}$/;

const presenceBody = z
  .strictObject({
    module: z.enum(BOUND_MODULES.map((bound) => bound.module.name) as [string, ...string[]]),
    id: z.string().regex(RECORD_ID, "Invalid record id"),
    open: z.boolean(),
  })
  .meta({ id: "LivePresenceBody" });

const presenceAnswer = z
  .object({ viewers: z.array(z.object({ id: z.number().int(), name: z.string() })) })
  .meta({ id: "LivePresence" });

export const liveRoutes: FastifyPluginAsyncZod<RouteDeps & { database: Database }> = async (
  app,
  { database, config },
) => {
  const hub = new LiveHub({
    database,
    modules: BOUND_MODULES,
    idleMs: config.sessions.idleMinutes * 60_000,
    log: app.log,
  });
  await hub.start();
  hubs.set(app.server, hub);
  // Before the listener closes: every console is told to reconnect elsewhere (docs/fleet.md).
  app.addHook("preClose", async () => hub.drain());
  app.addHook("onClose", async () => hub.stop());

  app.get(
    "/api/live/events",
    {
      config: { access: "session" },
      schema: {
        tags: ["live"],
        summary: "The stream of changes (server-sent events)",
        description:
          "text/event-stream. Events: `change` {modules, ids (null: many), kind: created|changed|deleted} with an `id:` to resume from (`Last-Event-ID` header); `presence` {module, id, viewers}; `reset` (refetch: the events since Last-Event-ID are no longer all known, or it was malformed); `revoked` (the session ended: the stream closes); `reconnect` (the instance stops: reconnect after `retry:`). Only the modules whose permission the caller holds; never a record's contents. A comment line every 15 s. Held open only when the request accepts text/event-stream (EventSource and the console send it); otherwise the stream's start is sent and it ends.",
        response: {
          200: z.string().describe("text/event-stream"),
          ...errorResponses(401, 403),
        },
      },
    },
    async (request, reply) => {
      const admin = currentAdmin(request);
      const header = request.headers["last-event-id"];
      // Malformed (not a number of at most 15 digits, or too long): a reset, not a refusal.
      const lastEventId = typeof header === "string" ? header.trim() : undefined;
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        "Content-Type": "text/event-stream; charset=utf-8",
        "Cache-Control": "no-store",
        Connection: "keep-alive",
        "X-Accel-Buffering": "no",
      });
      res.socket?.setNoDelay?.(true);
      res.socket?.setTimeout?.(0);
      // Held open only for a client that asks for an event stream (EventSource and the console
      // do); any other gets the stream's start and its end.
      const follow = /text\/event-stream/i.test(String(request.headers.accept ?? ""));
      hub.open(
        res,
        admin,
        { jti: request.token!.jti, version: request.token!.version },
        lastEventId,
        follow,
      );
    },
  );

  app.post(
    "/api/live/presence",
    {
      config: { access: "session" },
      schema: {
        tags: ["live"],
        summary: "Have a record's page open (or not); who else has it open",
        description:
          "Renew every 20 s while the page is open (a presence lasts 45 s); `open: false` when it closes. `module` is a module's name whose permission the caller holds.",
        body: presenceBody,
        response: { 200: presenceAnswer, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const admin = currentAdmin(request);
      const { module, id, open } = request.body;
      if (!hub.hasModule(module)) {
        throw new HttpError(400, `Invalid module: no module is named so`, "VALIDATION_ERROR");
      }
      if (!hub.mayRead(admin, module)) {
        throw new HttpError(403, noPermissionMessage("POST", "Live Presence"));
      }
      await hub.announce(admin, request.token!.jti, module, id, open);
      return { viewers: hub.viewers(module, id, admin.id) };
    },
  );
};
