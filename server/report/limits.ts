import { createHmac } from "node:crypto";

import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

import type { Config } from "../config";
import { HttpError } from "../errors";
import { limiterScope } from "../rate-limit/store";

export const HOUR_MS = 3_600_000;

/**
 * A stable stand-in for an e-mail address in logs and rate-limit keys: keyed with the server's
 * secret, so the address cannot be recovered by hashing a list of candidates.
 */
export function recipientPseudonym(secret: string, email: string): string {
  return createHmac("sha256", secret).update(email.trim().toLowerCase()).digest("hex").slice(0, 16);
}

type Limiter = ReturnType<FastifyInstance["createRateLimit"]>;

export interface ReportLimits {
  /** Counts every report request from the client's IP (before its body is even read). */
  perIp(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Counts a verified report to the body's `email`, whatever its letter case. */
  perRecipient(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

/**
 * Counts `request` against an hourly `limiter`. Over the limit: 429 RATE_LIMITED with a
 * Retry-After header, `tooMany` and when to retry as the message, and `details` with the seconds
 * to wait.
 */
export async function enforceLimit(
  limiter: Limiter,
  request: FastifyRequest,
  reply: FastifyReply,
  tooMany: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  const result = await limiter(request);
  if (result.isAllowed || !result.isExceeded) return;
  reply.header("retry-after", result.ttlInSeconds);
  const minutes = Math.max(1, Math.ceil(result.ttlInSeconds / 60));
  throw new HttpError(
    429,
    `${tooMany}, retry in ${minutes} minute${minutes === 1 ? "" : "s"}`,
    "RATE_LIMITED",
    { ...details, retryAfterSeconds: result.ttlInSeconds },
  );
}

const enforce = (
  limiter: Limiter,
  request: FastifyRequest,
  reply: FastifyReply,
  scope: "ip" | "email",
) =>
  enforceLimit(
    limiter,
    request,
    reply,
    `Too many reports ${scope === "ip" ? "from this address" : "to this e-mail"}`,
    { limit: scope },
  );

/**
 * Hourly limits of REPORT_RATE_LIMIT_PER_IP and REPORT_RATE_LIMIT_PER_EMAIL, on @fastify/rate-limit's
 * store (the database's counters, shared by every server instance). Two limiters rather than the
 * route's `config.rateLimit`: the plugin runs only one per route, and the per-recipient key needs
 * the validated body.
 */
export function reportLimits(app: FastifyInstance, config: Config): ReportLimits {
  const byIp = app.createRateLimit({
    max: config.reportRateLimitPerIp,
    timeWindow: HOUR_MS,
    ...limiterScope("report-per-ip"),
  });
  const byRecipient = app.createRateLimit({
    max: config.reportRateLimitPerEmail,
    timeWindow: HOUR_MS,
    ...limiterScope("report-per-recipient"),
    // Only called after validation, so the body holds a well-formed address.
    keyGenerator: (request) =>
      recipientPseudonym(config.jwtSecret, (request.body as { email: string }).email),
  });
  return {
    perIp: (request, reply) => enforce(byIp, request, reply, "ip"),
    perRecipient: (request, reply) => enforce(byRecipient, request, reply, "email"),
  };
}
