import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";

import type { RouteDeps } from "../http/deps";
import { DRAINING_RETRY_AFTER_SECONDS } from "../http/readiness";

/** The probes a balancer asks (docs/fleet.md); they answer even while the instance stops. */
export const PROBE_PATHS = new Set(["/v1/health", "/v1/ready"]);

const NOT_READY_MESSAGES = {
  SERVER_DRAINING: "This server is restarting; try again in a moment",
  DATABASE_UNAVAILABLE: "The database cannot be reached; try again in a moment",
} as const;

export const healthRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { readiness }) => {
  app.get(
    "/health",
    {
      config: { access: "public" },
      schema: {
        tags: ["health"],
        summary: "Liveness",
        description: "The process answers. Asks nothing of the database.",
        response: { 200: z.object({ status: z.literal("ok") }) },
      },
    },
    async () => ({ status: "ok" as const }),
  );
  app.get(
    "/ready",
    {
      config: { access: "public" },
      schema: {
        tags: ["health"],
        summary: "Readiness",
        description:
          "Ready to be sent requests: migrations ran, the database answered within the last second (asked at most once a second however many probes ask), and the instance is not stopping. 503 SERVER_DRAINING while it stops; 503 DATABASE_UNAVAILABLE while the database cannot be reached.",
        response: {
          200: z.object({ status: z.literal("ready") }),
          503: z.object({
            code: z.enum(["SERVER_DRAINING", "DATABASE_UNAVAILABLE"]),
            message: z.string(),
          }),
        },
      },
    },
    async (_request, reply) => {
      const state = await readiness.check();
      reply.header("Cache-Control", "no-store");
      if (state.ready) return { status: "ready" as const };
      return reply
        .status(503)
        .header("Retry-After", String(DRAINING_RETRY_AFTER_SECONDS))
        .send({ code: state.code, message: NOT_READY_MESSAGES[state.code] });
    },
  );
};
