import { createHash } from "node:crypto";

import type { FastifyReply, FastifyRequest } from "fastify";

/** How long a client or a shared cache may use a public answer before asking again. */
export const PUBLIC_MAX_AGE_SECONDS = 60;

/** A strong ETag of an answer: the hash of what would be sent. */
export const etagOf = (body: unknown) =>
  `"${createHash("sha256").update(JSON.stringify(body)).digest("base64url").slice(0, 32)}"`;

/** Whether the client's If-None-Match names this ETag (weak or strong, or `*`). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === "*" || tag === etag);
}

/**
 * The route-level onSend hook of a public read: it runs after the app's own (which marks every
 * API answer `no-store`), so a successful answer may be cached a minute and revalidated by its
 * ETag; errors stay `no-store`.
 */
export async function publicCaching(_request: FastifyRequest, reply: FastifyReply) {
  if (reply.statusCode === 200 || reply.statusCode === 304) {
    reply.header(
      "Cache-Control",
      `public, max-age=${PUBLIC_MAX_AGE_SECONDS}, stale-while-revalidate=${PUBLIC_MAX_AGE_SECONDS}`,
    );
    reply.header("Vary", "Accept-Encoding");
  }
}

/** Sends `body` with its ETag, or 304 with none when the client has it already. */
export function sendWithEtag<T>(request: FastifyRequest, reply: FastifyReply, body: T) {
  const etag = etagOf(body);
  reply.header("ETag", etag);
  if (matches(request.headers["if-none-match"], etag)) return reply.code(304).send();
  return reply.send(body);
}
