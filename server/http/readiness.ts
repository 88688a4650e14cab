/**
 * Whether this instance should be sent traffic (docs/fleet.md). `GET /v1/health` says only that
 * the process answers; `GET /v1/ready` says it is ready: its migrations ran (the server listens
 * only after), the database answered within the last second, and it is not stopping. A stopping
 * instance first turns unready while it still serves (the balancer's checks notice and send
 * nothing new), then refuses what still arrives with a retryable 503 SERVER_DRAINING while the
 * requests in flight finish.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { sql } from "drizzle-orm";

import type { Db } from "../db";

/** How long one answer of the database stands for every probe (a probe flood asks it once). */
const DATABASE_CHECK_MS = 1000;

/** What a new request is told while the instance stops: try again, elsewhere. */
export const DRAINING_RETRY_AFTER_SECONDS = 1;

export type ReadyState =
  { ready: true } | { ready: false; code: "SERVER_DRAINING" | "DATABASE_UNAVAILABLE" };

export interface Readiness {
  /** Ready or not, asking the database at most once a second however many probes ask. */
  check(): Promise<ReadyState>;
  /** Stop being ready; requests are still served (the balancer has not noticed yet). */
  drain(): void;
  /** Refuse new requests from now on (503 SERVER_DRAINING); those in flight go on. */
  refuse(): void;
  readonly refusing: boolean;
}

export function createReadiness(db: Db): Readiness {
  let draining = false;
  let refusing = false;
  let last: { at: number; reachable: Promise<boolean> } | undefined;
  const databaseReachable = () => {
    const now = Date.now();
    if (!last || now - last.at >= DATABASE_CHECK_MS) {
      last = {
        at: now,
        reachable: db.execute(sql`select 1`).then(
          () => true,
          () => false,
        ),
      };
    }
    return last.reachable;
  };
  return {
    async check() {
      if (draining) return { ready: false, code: "SERVER_DRAINING" };
      return (await databaseReachable())
        ? { ready: true }
        : { ready: false, code: "DATABASE_UNAVAILABLE" };
    },
    drain() {
      draining = true;
    },
    refuse() {
      draining = true;
      refusing = true;
    },
    get refusing() {
      return refusing;
    },
  };
}

/**
 * Answers every request but the probes with 503 SERVER_DRAINING once the instance refuses, with
 * `Retry-After` and `Connection: close` so the client (or the balancer) asks another instance.
 */
export function installDrainGuard(
  app: FastifyInstance,
  readiness: Readiness,
  probes: ReadonlySet<string>,
) {
  app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    if (!readiness.refusing || probes.has(request.url.split("?")[0]!)) return;
    return reply
      .status(503)
      .header("Retry-After", String(DRAINING_RETRY_AFTER_SECONDS))
      .header("Connection", "close")
      .header("Cache-Control", "no-store")
      .send({
        code: "SERVER_DRAINING",
        message: "This server is restarting; try again in a moment",
      });
  });
}
