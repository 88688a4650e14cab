/**
 * The server's half of record versions (docs/versions.md, src/shared/kit/versions.ts): the
 * If-Match a change sends is read here (400 when malformed or naming another record), compared
 * under the row lock by changeRecord (409 VERSION_CONFLICT with the record as it is now and who
 * changed it last), and the record's GET answers its ETag.
 */
import { and, desc, eq, getTableName, sql } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";

import {
  etagOf,
  IF_MATCH_INVALID,
  IF_MATCH_OTHER_RECORD,
  isVersioned,
  parseIfMatch,
  VERSION_FIELD,
  versionOf,
  type LastChange,
  type VersionConflictData,
} from "../../src/shared/kit/versions";
import type { DbOrTx } from "../db";
import { administrators, auditLog } from "../db/schema";
import { ifMatchRefused, versionConflict } from "../errors";
import { requestLanguage, type Language } from "../http/language";
import type { BoundModule } from "./bind";

type Item = Record<string, unknown>;

/** The server's own words for a refused If-Match, in the console's language. */
const TEXTS = {
  invalid: {
    "en-US":
      'If-Match must be one ETag of this record as its GET answers it ("<collection>/<id>/<version>"), or *.',
    "cn-ZH": 'If-Match 须为该记录 GET 所返回的一个 ETag（"<collection>/<id>/<version>"），或 *。',
  },
  otherRecord: {
    "en-US": "If-Match names a version of another record: reload this record and try again.",
    "cn-ZH": "If-Match 指向另一条记录的版本：请重新载入此记录后再试。",
  },
  conflict: {
    "en-US": "Someone changed this record after you opened it: nothing was saved.",
    "cn-ZH": "您打开此记录后已有他人修改：未保存任何内容。",
  },
} as const satisfies Record<string, Record<Language, string>>;

/**
 * The version a change of record `id` was based on (its If-Match), or undefined when it sent none
 * or `*` (today's behaviour). 400 IF_MATCH_INVALID when it is not one strong ETag of the kit's
 * shape, 400 IF_MATCH_OTHER_RECORD when it is the ETag of another record (or collection).
 */
export function expectedVersion(
  bound: BoundModule,
  request: FastifyRequest,
  id: number,
): number | undefined {
  const ifMatch = parseIfMatch(request.headers["if-match"]);
  if (ifMatch.kind === "any") return undefined;
  const language = requestLanguage(request);
  if (ifMatch.kind === "invalid" || !isVersioned(bound.module)) {
    throw ifMatchRefused(IF_MATCH_INVALID, TEXTS.invalid[language]);
  }
  if (ifMatch.collection !== bound.module.collection || ifMatch.id !== id) {
    throw ifMatchRefused(IF_MATCH_OTHER_RECORD, TEXTS.otherRecord[language], {
      collection: ifMatch.collection,
      id: ifMatch.id,
    });
  }
  return ifMatch.version;
}

/** The ETag of a record of `bound` (undefined when its records carry no version). */
export function etagOfRecord(bound: BoundModule, id: number, item: Item): string | undefined {
  const version = versionOf(item);
  return version === undefined ? undefined : etagOf(bound.module.collection, id, version);
}

/** Answers record `id`'s ETag with `item` (nothing when its records carry no version). */
export function answerEtag(bound: BoundModule, reply: FastifyReply, id: number, item: Item): void {
  const etag = etagOfRecord(bound, id, item);
  if (etag) void reply.header("ETag", etag);
}

/** What a change of one record passes to changeRecord from its request (docs/versions.md). */
export interface RequestedVersion {
  /** The version the change was based on (If-Match), or undefined for none or `*`. */
  expectedVersion?: number;
  /** The language of a 409's message. */
  language: Language;
}

/**
 * The If-Match of a change of record `id` for changeRecord to check under the row lock: for the
 * kit's routes and for a module's own change routes alike (publishing a help article, assigning
 * a report). 400 when malformed or another record's, before anything else is read.
 */
export function requestedVersion(
  bound: BoundModule,
  request: FastifyRequest,
  id: number,
): RequestedVersion {
  return {
    expectedVersion: expectedVersion(bound, request, id),
    language: requestLanguage(request),
  };
}

/** Who changed record `id` of `table` last and when: its newest audit entry, or null. */
export async function lastChangeOf(
  db: DbOrTx,
  table: string,
  id: number,
): Promise<LastChange | null> {
  const [entry] = await db
    .select({
      adminId: auditLog.adminId,
      adminName: sql<string | null>`(select ${administrators.name} from ${administrators}
        where ${administrators.id} = ${auditLog.adminId})`,
      action: auditLog.action,
      at: auditLog.createdAt,
      before: auditLog.before,
      after: auditLog.after,
    })
    .from(auditLog)
    .where(and(eq(auditLog.targetTable, table), eq(auditLog.targetId, String(id))))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(1);
  if (!entry) return null;
  const snapshot = (value: unknown) =>
    typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Item) : null;
  return {
    adminId: entry.adminId,
    adminName: entry.adminName,
    action: entry.action,
    at: entry.at.toISOString(),
    before: snapshot(entry.before),
    after: snapshot(entry.after),
  };
}

/**
 * Refuses (409 VERSION_CONFLICT) a change based on `expected` when record `before` is at another
 * version: the data carries the record as it is now, its version and ETag, and who changed it last.
 */
export async function checkVersion(
  db: DbOrTx,
  bound: BoundModule,
  id: number,
  before: Item,
  expected: number | undefined,
  language: Language = "en-US",
): Promise<void> {
  if (expected === undefined) return;
  const version = versionOf(before);
  if (version === undefined || version === expected) return;
  const data: VersionConflictData = {
    current: before,
    version,
    yourVersion: expected,
    etag: etagOf(bound.module.collection, id, version),
    lastChange: await lastChangeOf(db, getTableName(bound.binding.table), id),
  };
  throw versionConflict(TEXTS.conflict[language], data);
}

/** `UPDATE … SET version = version + 1` on record `id`; answers the new version. */
export async function bumpVersion(
  db: DbOrTx,
  bound: BoundModule,
  id: number,
): Promise<number | undefined> {
  if (!isVersioned(bound.module)) return undefined;
  const table = bound.binding.table as unknown as Record<string, never>;
  const column = table[VERSION_FIELD] as unknown as Parameters<typeof eq>[0];
  const [row] = await db
    .update(bound.binding.table)
    .set({ [VERSION_FIELD]: sql`${column} + 1` } as never)
    .where(eq(bound.binding.table.id, id))
    .returning({ version: column as never });
  return (row as { version?: number } | undefined)?.version;
}

/** What a route of a versioned module states in the OpenAPI document (server/http/openapi.ts). */
export interface RouteVersions {
  /** It takes If-Match. */
  ifMatch?: boolean;
  /** Its success answers the record's ETag. */
  etag?: boolean;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route's part in record versions (docs/versions.md), for the OpenAPI document. */
    versions?: RouteVersions;
  }
}

/** A change route's versions: If-Match and ETag on a versioned module's, nothing otherwise. */
export const versionsOf = (module: BoundModule["module"]): RouteVersions | undefined =>
  isVersioned(module) ? { ifMatch: true, etag: true } : undefined;
