/**
 * Record versions (docs/versions.md): every record of a module staff change through the kit (one
 * with an edit form or actions) carries `version`, 1 when written and bumped by every change the
 * kit makes. The record's ETag names the record and its version; an edit or an action sends the
 * ETag it was based on as `If-Match`, and a record that moved on since is refused with 409
 * VERSION_CONFLICT. Shared: the server parses the header, the console builds it from a record.
 */
import { z } from "zod";

/** The field every versioned record carries (declared once here, not by each module). */
export const VERSION_FIELD = "version";

/** The largest version (PostgreSQL `integer`). */
export const VERSION_MAX = 2_147_483_647;

export const versionSchema = z
  .number()
  .int()
  .min(1)
  .max(VERSION_MAX)
  .describe(
    "The record's version: 1 when written, bumped by every change staff make through the kit. " +
      'Send it back as If-Match: "<collection>/<id>/<version>" (the ETag of GET one).',
  );

/** The header a change sends the version it was based on in, and the one a record answers. */
export const IF_MATCH_HEADER = "if-match";
export const ETAG_HEADER = "etag";

/** The longest If-Match the server reads; a longer one is refused (400 IF_MATCH_INVALID). */
export const IF_MATCH_MAX_LENGTH = 200;

/**
 * The ETag of one version of one record: strong, and naming the record (its collection and id), so
 * that a version of another record sent by mistake is recognised and refused, not compared.
 */
export const etagOf = (collection: string, id: number, version: number): string =>
  `"${collection}/${id}/${version}"`;

/** What an If-Match header asks for. */
export type IfMatch =
  /** No header, or `*`: today's behaviour, no version check (the seed's calls). */
  | { kind: "any" }
  | { kind: "version"; collection: string; id: number; version: number }
  /** Not one strong ETag of the kit's shape (a weak tag, a list, garbage, too long). */
  | { kind: "invalid" };

const ETAG = /^"([a-z][a-z0-9-]{0,63})\/([1-9]\d{0,9})\/([1-9]\d{0,9})"$/;

/** Reads an If-Match header (Fastify gives a string; a repeated header arrives as one list). */
export function parseIfMatch(header: string | string[] | undefined): IfMatch {
  if (header === undefined) return { kind: "any" };
  if (Array.isArray(header)) return header.length === 1 ? parseIfMatch(header[0]) : invalid;
  const text = header.trim();
  if (text === "*") return { kind: "any" };
  if (header.length > IF_MATCH_MAX_LENGTH) return invalid;
  const match = ETAG.exec(text);
  if (!match) return invalid;
  const id = Number(match[2]);
  const version = Number(match[3]);
  if (id > VERSION_MAX || version > VERSION_MAX) return invalid;
  return { kind: "version", collection: match[1]!, id, version };
}

const invalid: IfMatch = { kind: "invalid" };

/** A record's version, when it carries one (a versioned module's record, a list row). */
export function versionOf(record: unknown): number | undefined {
  if (typeof record !== "object" || record === null) return undefined;
  const value = (record as Record<string, unknown>)[VERSION_FIELD];
  return typeof value === "number" && Number.isInteger(value) && value >= 1 ? value : undefined;
}

/** The If-Match header a change of `record` sends, or none when it carries no version. */
export function ifMatchOf(
  collection: string,
  id: number | string,
  record: unknown,
): Record<string, string> {
  const version = versionOf(record);
  const numeric = Number(id);
  if (version === undefined || !Number.isInteger(numeric)) return {};
  return { "If-Match": etagOf(collection, numeric, version) };
}

/** Who last changed a record and when (the newest audit entry about it), in a 409's data. */
export const lastChangeSchema = z.object({
  adminId: z.number().int().nullable(),
  adminName: z.string().nullable(),
  action: z.string(),
  at: z.string(),
  /** The fields that entry changed, before and after (the audit's snapshots). */
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});
export type LastChange = z.infer<typeof lastChangeSchema>;

/** The data of a 409 VERSION_CONFLICT: the record as it is now, its version and who changed it. */
export const versionConflictData = z.object({
  current: z.record(z.string(), z.unknown()),
  version: z.number().int(),
  /** The version the change was based on. */
  yourVersion: z.number().int(),
  etag: z.string(),
  lastChange: lastChangeSchema.nullable(),
});
export type VersionConflictData = z.infer<typeof versionConflictData>;

export const VERSION_CONFLICT = "VERSION_CONFLICT";
export const IF_MATCH_INVALID = "IF_MATCH_INVALID";
export const IF_MATCH_OTHER_RECORD = "IF_MATCH_OTHER_RECORD";

/** Whether a module's records carry a version (it has an edit form or actions, or views one). */
export const isVersioned = (module: { item: z.ZodObject }): boolean =>
  VERSION_FIELD in module.item.shape;
