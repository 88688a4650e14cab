/**
 * The tamper-evident chains of the audit trail and the ledger (docs/integrity.md), for
 * administrators holding Admin (8): the latest verification, a verification now, the signed
 * export of a period, and the public key an auditor checks exports with.
 */
import { Readable } from "node:stream";

import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { desc } from "drizzle-orm";
import { z } from "zod";

import { PERMISSION } from "../../src/shared/permissions";
import { errorResponses, isoDate } from "../../src/shared/schemas/common";
import { currentAdmin } from "../auth/access";
import { businessDayOf } from "../business-day";
import { chainVerifications } from "../db/schema";
import { HttpError } from "../errors";
import { checkPeriod } from "../http/period";
import { exportLines, MAX_EXPORT_DAYS } from "../integrity/export";
import { signerOf } from "../integrity/signing";
import { verifyChains, type Verification } from "../integrity/verify";
import type { RouteDeps } from "../http/deps";

const breakSchema = z.object({
  table: z.enum(["audit_log", "wallet_transactions"]),
  chain: z.string(),
  rowId: z.number().int().nullable(),
  kind: z.enum(["edited", "deleted", "inserted", "head-moved"]),
  expected: z.string().nullable(),
  found: z.string().nullable(),
  detail: z.string(),
});

const verificationSchema = z.object({
  id: z.number().int(),
  status: z.enum(["ok", "broken"]),
  rowsChecked: z.number().int(),
  breaks: z.array(breakSchema),
  heads: z.object({
    audit: z.record(z.string(), z.object({ seq: z.number().int(), hash: z.string() })),
    ledger: z.object({ wallets: z.number().int(), digest: z.string() }),
  }),
  adminId: z.number().int().nullable(),
  startedAt: z.string(),
  finishedAt: z.string(),
  keyId: z.string(),
  signature: z.string(),
});

const latestSchema = z.object({
  running: z.boolean().describe("A verification asked on this instance is still walking"),
  latest: verificationSchema.nullable(),
});

const exportQuery = z.strictObject({
  table: z.enum(["audit", "ledger"]).describe("The audit trail or the ledger"),
  from: isoDate.describe("First business day of the period (BUSINESS_TIMEZONE)"),
  to: isoDate.describe(`Last business day, included; at most ${MAX_EXPORT_DAYS} days in all`),
});

/** Connections a verification's ledger walk uses: two on PostgreSQL, the one embedded. */
export const WALK_PARTS = (config: { databaseUrl?: string }) => (config.databaseUrl ? 2 : 1);

/** How long POST /api/integrity/verification waits for its walk before answering 202. */
const WAIT_MS = 20_000;

/** A stored verification as the API answers it (its signature `<keyId>:<base64>`). */
function answerOf(row: typeof chainVerifications.$inferSelect): z.infer<typeof verificationSchema> {
  const [keyId = "", signature = ""] = row.signature.split(":");
  return {
    id: row.id,
    status: row.status as "ok" | "broken",
    rowsChecked: row.rowsChecked,
    breaks: row.breaks as Verification["breaks"],
    heads: row.heads as Verification["heads"],
    adminId: row.adminId,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt.toISOString(),
    keyId,
    signature,
  };
}

export const integrityRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db, config }) => {
  const access = { permission: PERMISSION.admin, thing: "Integrity" } as const;
  const signer = signerOf(config.integritySigningKey);
  let running: Promise<Verification> | undefined;

  const latest = async () => {
    const [row] = await db
      .select()
      .from(chainVerifications)
      .orderBy(desc(chainVerifications.startedAt), desc(chainVerifications.id))
      .limit(1);
    return { running: running !== undefined, latest: row ? answerOf(row) : null };
  };

  app.get(
    "/api/integrity/verification",
    {
      config: { access },
      schema: {
        tags: ["integrity"],
        summary: "The latest verification of the audit trail's and the ledger's chains",
        description:
          "What the daily job or an administrator's last verification found: ok, or broken with " +
          "the first broken link of each chain (table, row id, edited / deleted / inserted / " +
          "head-moved, expected and found), the heads it saw, signed (Ed25519, " +
          "GET /api/integrity/public-key). `latest` is null before the first verification.",
        response: { 200: latestSchema, ...errorResponses(401, 403) },
      },
    },
    latest,
  );

  app.post(
    "/api/integrity/verification",
    {
      config: { access },
      schema: {
        tags: ["integrity"],
        summary: "Verify every chain now (recorded and signed)",
        description:
          "Walks every chain and records the result. Answers 200 with it when the walk ends " +
          `within ${WAIT_MS / 1000} s, else 202 while it goes on (read it later with GET). ` +
          "409 VERIFICATION_RUNNING while one asked on this instance is walking.",
        response: { 200: latestSchema, 202: latestSchema, ...errorResponses(401, 403, 409) },
      },
    },
    async (request, reply) => {
      if (running) {
        throw new HttpError(409, "A verification is already running", "VERIFICATION_RUNNING");
      }
      const walk = verifyChains(db, signer, currentAdmin(request).id, {
        parts: WALK_PARTS(config),
      });
      running = walk;
      const done = walk.finally(() => {
        running = undefined;
      });
      done.catch((error: unknown) =>
        request.log.error({ err: error }, "chain verification failed"),
      );
      const timer = new Promise<"waiting">((resolve) => {
        const handle = setTimeout(() => resolve("waiting"), WAIT_MS);
        void done.then(
          () => clearTimeout(handle),
          () => clearTimeout(handle),
        );
      });
      const first = await Promise.race([done, timer]);
      if (first === "waiting") return reply.code(202).send(await latest());
      return latest();
    },
  );

  app.get(
    "/api/integrity/export",
    {
      config: { access },
      schema: {
        tags: ["integrity"],
        summary: "A signed export of a period of the audit trail or the ledger (JSON lines)",
        description:
          "Streamed `application/x-ndjson`: a header, every row of each chain from its first to " +
          "its last row dated in the period (fields as hashed, and the link), one line per chain " +
          "(the link before it, its last link, its head now), then an Ed25519 signature over " +
          "SHA-256 of every byte before it. Check it offline with scripts/verify-export.mjs " +
          "(docs/integrity.md). Errors: 400 VALIDATION_ERROR (a table or a date that is not " +
          "one), RANGE_REVERSED (to before from), EXPORT_PERIOD_FUTURE (to after today), " +
          `EXPORT_PERIOD_TOO_LONG (more than ${MAX_EXPORT_DAYS} days; data.maxDays).`,
        querystring: exportQuery,
        response: { 200: z.string(), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { table, from, to } = request.query;
      if (to > businessDayOf(new Date())) {
        throw new HttpError(400, "Invalid to: The period ends after today", "EXPORT_PERIOD_FUTURE");
      }
      checkPeriod(
        { from, to },
        { maxDays: MAX_EXPORT_DAYS, code: "EXPORT_PERIOD_TOO_LONG", what: "An export" },
      );
      return (
        reply
          .type("application/x-ndjson; charset=utf-8")
          .header("content-disposition", `attachment; filename="${table}-${from}-${to}.jsonl"`)
          // A stream, sent as it is (the 200 schema documents its text; nothing serialises it).
          .send(Readable.from(exportLines(db, signer, { table, from, to })) as unknown as string)
      );
    },
  );

  app.get(
    "/api/integrity/public-key",
    {
      config: { access },
      schema: {
        tags: ["integrity"],
        summary: "The public key that verifications and exports are signed with",
        description:
          "Ed25519, SPKI PEM, and its id (the first 16 hex digits of SHA-256 of its DER), which " +
          "every export and verification names.",
        response: {
          200: z.object({
            algorithm: z.literal("Ed25519"),
            keyId: z.string(),
            publicKey: z.string(),
          }),
          ...errorResponses(401, 403),
        },
      },
    },
    async () => ({
      algorithm: "Ed25519" as const,
      keyId: signer.keyId,
      publicKey: signer.publicKeyPem,
    }),
  );
};
