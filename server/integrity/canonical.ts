/**
 * The canonical encoding the tamper-evident chains hash (docs/integrity.md), in JavaScript: the
 * same bytes as the SQL functions of migration 0035 (chain_field, ledger_digest, audit_digest),
 * which the writers and the verifier use. scripts/verify-export.mjs repeats these few lines (it
 * has no dependencies); a test checks the three agree.
 *
 * A row is a fixed list of fields, each given as its canonical text: integers in decimal, times
 * as `YYYY-MM-DDTHH:MM:SS.ffffffZ` in UTC, jsonb as PostgreSQL prints it (its keys in jsonb's own
 * order whatever order they were written in: independent of the writer's key order). Each field is
 * written `-` (null) or its length in UTF-8 bytes (decimal), `:` and its text; the row's digest
 * is SHA-256 of the UTF-8 bytes of the concatenation, and its link SHA-256(previous link ||
 * digest), the first link's previous being 32 zero bytes.
 */
import { createHash } from "node:crypto";

import { sql, type SQL } from "drizzle-orm";

/** The fields of a ledger row, in hashing order: every column but status (and hash). */
export const LEDGER_FIELDS = [
  "id",
  "user_id",
  "type",
  "amount_sen",
  "balance_after_sen",
  "channel",
  "business_id",
  "agent_user_id",
  "reference",
  "reverses_id",
  "fee_sen",
  "remark",
  "admin_id",
  "search_text",
  "created_at",
] as const;

/** The fields of an audit entry, in hashing order: every column but its chain place and hash. */
export const AUDIT_FIELDS = [
  "id",
  "admin_id",
  "action",
  "target_table",
  "target_id",
  "remark",
  "before",
  "after",
  "approved_by",
  "created_at",
] as const;

export type CanonicalRow = Record<string, string | null>;

/** The previous link of a chain's first row. */
export const ZERO_HASH: Buffer = Buffer.alloc(32);

/** The canonical bytes of a row: its fields' texts, in `fields` order. */
export function canonicalBytes(fields: readonly string[], row: CanonicalRow): Buffer {
  let text = "";
  for (const field of fields) {
    const value = row[field];
    text += value === null || value === undefined ? "-" : `${Buffer.byteLength(value)}:${value}`;
  }
  return Buffer.from(text, "utf8");
}

/** SHA-256 of a row's canonical bytes. */
export function digestOf(fields: readonly string[], row: CanonicalRow): Buffer {
  return createHash("sha256").update(canonicalBytes(fields, row)).digest();
}

/** A chain's next link: SHA-256(previous link || digest). */
export function linkOf(previous: Buffer, digest: Buffer): Buffer {
  return createHash("sha256").update(previous).update(digest).digest();
}

/** A table's columns as their canonical texts (the export's row fields), aliased by name. */
export function canonicalColumns(fields: readonly string[], alias: string): SQL {
  return sql.join(
    fields.map((field) => {
      const column = sql.raw(`${alias}.${field}`);
      const text = field === "created_at" ? sql`chain_time(${column})` : sql`${column}::text`;
      return sql`${text} as ${sql.identifier(field)}`;
    }),
    sql`, `,
  );
}

/** The SQL digest of a ledger row `alias` (ledger_digest, migration 0035). */
export const ledgerDigestSql = (alias: string): SQL =>
  sql.raw(`ledger_digest(${LEDGER_FIELDS.map((field) => `${alias}.${field}`).join(", ")})`);

/** The SQL digest of an audit entry `alias` (audit_digest, migration 0035). */
export const auditDigestSql = (alias: string): SQL =>
  sql.raw(`audit_digest(${AUDIT_FIELDS.map((field) => `${alias}.${field}`).join(", ")})`);
