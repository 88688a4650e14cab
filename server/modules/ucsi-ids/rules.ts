/**
 * UCSI ID Management (docs/modules.md): link a university ID to a wallet
 * account, revoke it with a remark, and import many links from a CSV file, all or none.
 * One active link per ID and per account is the database's rule (partial unique indexes); the
 * checks here only word the refusals before the database would.
 */
import { sql } from "drizzle-orm";

import { looksLikeFormula } from "../../../src/shared/csv";
import {
  ACCOUNT_NUMBER_FORMAT,
  UCSI_ID_FORMATS,
  UCSI_ID_TYPES,
  UCSI_IMPORT_HEADER,
  UCSI_IMPORT_MAX_ROWS,
  normaliseUcsiId,
  type ImportResult,
  type ImportRow,
} from "../../../src/shared/modules/ucsi-ids";
import type { Db, DbOrTx } from "../../db";
import { ucsiIds, users } from "../../db/schema";
import { conflict, HttpError } from "../../errors";

/** The database's own refusal of a second active link, worded as the checks word it. */
export function linkConflict(error: unknown): HttpError | undefined {
  const cause = ((error as { cause?: unknown }).cause ?? error) as {
    code?: string;
    constraint?: string;
  };
  if (cause.code !== "23505") return undefined;
  return cause.constraint === "ucsi_ids_active_user_id_key"
    ? conflict("ACCOUNT_ALREADY_LINKED", "This account already has an active UCSI ID")
    : conflict("UCSI_ID_ALREADY_LINKED", "This UCSI ID is already linked to an account");
}

// ---------------------------------------------------------------------------------------------
// The CSV import

/** A refusal of an import file (400 unless told), in words staff can act on. */
export const badFile = (message: string, code: string, status = 400, data?: unknown) =>
  new HttpError(status, message, code, data);

/** The records of a CSV text (RFC 4180: quoted cells, doubled quotes, CRLF or LF). */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = "";
  let quoted = false;
  let i = 0;
  const endCell = () => {
    record.push(cell);
    cell = "";
  };
  const endRecord = () => {
    endCell();
    records.push(record);
    record = [];
  };
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 1;
        } else quoted = false;
      } else cell += c;
    } else if (c === '"' && cell === "") quoted = true;
    else if (c === ",") endCell();
    else if (c === "\n") endRecord();
    else if (c === "\r" && text[i + 1] === "\n") {
      endRecord();
      i += 1;
    } else cell += c;
    i += 1;
  }
  if (quoted) throw badFile("A quoted cell of the file is never closed", "CSV_MALFORMED");
  if (cell !== "" || record.length > 0) endRecord();
  // Blank lines are no rows.
  return records.filter((r) => !(r.length === 1 && r[0]!.trim() === ""));
}

/** The file's text: UTF-8 only (a byte-order mark allowed); anything else is refused. */
function decodeUtf8(content: Buffer): string {
  try {
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(content);
    if (text.includes("\u0000")) throw new Error("NUL");
    return text;
  } catch {
    throw badFile(
      "The file is not UTF-8 text: save it as CSV UTF-8 and try again",
      "INVALID_ENCODING",
    );
  }
}

interface Candidate extends ImportRow {
  userId?: number;
}

/** Each row's shape: format, formula cells; then duplicates within the file. */
function checkRows(records: string[][]): Candidate[] {
  const seenIds = new Set<string>();
  const seenAccounts = new Set<string>();
  return records.map((cells, index) => {
    const [rawId = "", rawType = "", rawAccount = ""] = cells;
    const row: Candidate = {
      line: index + 2,
      ucsiId: normaliseUcsiId(rawId),
      type: rawType.trim().toLowerCase(),
      accountNumber: rawAccount.trim().toUpperCase(),
      result: "ok",
    };
    if (cells.some(looksLikeFormula)) {
      return { ...row, ucsiId: rawId, type: rawType, accountNumber: rawAccount, result: "formula" };
    }
    const type = row.type as (typeof UCSI_ID_TYPES)[number];
    if (
      cells.length !== UCSI_IMPORT_HEADER.length ||
      !UCSI_ID_TYPES.includes(type) ||
      !UCSI_ID_FORMATS[type].test(row.ucsiId) ||
      !ACCOUNT_NUMBER_FORMAT.test(row.accountNumber)
    ) {
      return { ...row, result: "bad_format" };
    }
    if (seenIds.has(row.ucsiId) || seenAccounts.has(row.accountNumber)) {
      return { ...row, result: "duplicate_in_file" };
    }
    seenIds.add(row.ucsiId);
    seenAccounts.add(row.accountNumber);
    return row;
  });
}

/** Against the database: unknown accounts, IDs and accounts with an active link already. */
async function checkAgainstDatabase(db: DbOrTx, rows: Candidate[]): Promise<void> {
  const pending = rows.filter((row) => row.result === "ok");
  if (pending.length === 0) return;
  const accounts = JSON.stringify(pending.map((row) => row.accountNumber));
  const ids = JSON.stringify(pending.map((row) => row.ucsiId));
  const found = await db.execute<{ id: number; account_number: string; linked: boolean }>(sql`
    select u.id, u.account_number,
      exists (select 1 from ${ucsiIds} l where l.user_id = u.id and l.status = 'active') as linked
    from ${users} u
    where u.account_number in (select jsonb_array_elements_text(${accounts}::jsonb))`);
  const byAccount = new Map(found.rows.map((r) => [r.account_number, r]));
  const linked = await db.execute<{ ucsi_id: string }>(sql`
    select ucsi_id from ${ucsiIds}
    where status = 'active' and ucsi_id in (select jsonb_array_elements_text(${ids}::jsonb))`);
  const linkedIds = new Set(linked.rows.map((r) => r.ucsi_id));
  for (const row of pending) {
    const user = byAccount.get(row.accountNumber);
    if (!user) row.result = "unknown_account";
    else if (linkedIds.has(row.ucsiId)) row.result = "already_linked";
    else if (user.linked) row.result = "account_linked";
    else row.userId = user.id;
  }
}

/** How many rows a refused import lists in its answer (the dry run lists every row). */
const REFUSAL_ROWS = 1000;

/**
 * Checks a file's rows and, unless `dryRun`, links every one of them in one statement, with one
 * audit entry per link, or none when any row has a problem (400 IMPORT_REJECTED with them).
 */
export async function importUcsiIds(
  db: Db,
  file: { content: Buffer },
  options: { dryRun: boolean; adminId: number },
): Promise<ImportResult> {
  const records = parseCsv(decodeUtf8(file.content));
  const [header, ...body] = records;
  const expected = UCSI_IMPORT_HEADER.join(",");
  const got = (header ?? []).map((cell) => cell.trim().toLowerCase()).join(",");
  if (got !== expected) {
    throw badFile(`The first line must be the header ${expected}`, "IMPORT_WRONG_HEADER", 400, {
      expected,
    });
  }
  if (body.length === 0) throw badFile("The file has no rows under its header", "IMPORT_EMPTY");
  if (body.length > UCSI_IMPORT_MAX_ROWS) {
    throw badFile(
      `The file has ${body.length} rows: at most ${UCSI_IMPORT_MAX_ROWS} per import`,
      "IMPORT_TOO_MANY_ROWS",
      400,
      { max: UCSI_IMPORT_MAX_ROWS },
    );
  }
  const run = async (tx: DbOrTx) => {
    const rows = checkRows(body);
    await checkAgainstDatabase(tx, rows);
    const invalid = rows.filter((row) => row.result !== "ok").length;
    const summary = { total: rows.length, valid: rows.length - invalid, invalid };
    const answer = (imported: number): ImportResult => ({
      dryRun: options.dryRun,
      ...summary,
      imported,
      rows: rows.map(({ userId: _userId, ...row }) => row),
    });
    if (options.dryRun) return answer(0);
    if (invalid > 0) {
      throw badFile(
        `Nothing was imported: ${invalid} of ${rows.length} rows have problems`,
        "IMPORT_REJECTED",
        400,
        {
          ...summary,
          rows: rows
            .filter((row) => row.result !== "ok")
            .slice(0, REFUSAL_ROWS)
            .map(({ userId: _userId, ...row }) => row),
        },
      );
    }
    const links = JSON.stringify(rows.map((row) => [row.ucsiId, row.type, row.userId]));
    try {
      await tx.execute(sql`
        with linked as (
          insert into ${ucsiIds} (ucsi_id, type, user_id, linked_by)
          select x->>0, x->>1, (x->>2)::int, ${options.adminId}::int
          from jsonb_array_elements(${links}::jsonb) x
          returning id, ucsi_id, type, user_id
        )
        insert into audit_log (admin_id, action, target_table, target_id, remark, before, after)
        select ${options.adminId}::int, 'ucsi_id.import', 'ucsi_ids', id::text, null, null,
          jsonb_build_object('ucsiId', ucsi_id, 'type', type, 'userId', user_id, 'status', 'active')
        from linked`);
    } catch (error) {
      throw linkConflict(error) ?? error;
    }
    return answer(rows.length);
  };
  return options.dryRun ? run(db) : db.transaction(run);
}

/** The template staff fill in: the header and one row of each type. */
export const IMPORT_TEMPLATE = `${UCSI_IMPORT_HEADER.join(",")}\r\n1002261234,student,W100000001\r\nS01234,staff,W100000002\r\n`;
