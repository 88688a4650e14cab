/**
 * UCSI ID Management (issue 14) through HTTP on a real database: link, one active link per ID
 * and per account (the database's partial unique indexes), revoke with a remark, the list, the
 * CSV import's dry run (one result per row) and its all-or-none real run, the template, bad files
 * (wrong header, not UTF-8, too large, formula cells) that store nothing, and permissions.
 */
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { ucsiIds } from "../../server/db/schema";
import { PERMISSION } from "../../src/shared/permissions";
import type { ImportResult, UcsiIdDto } from "../../src/shared/modules/ucsi-ids";
import { auth, createAdmin, DEMO, login } from "./support/app";
import {
  auditEntries,
  call,
  expectError,
  expectNoPermission,
  insertWalletUser,
  useUserDeskSuite,
} from "./support/user-fixtures";

const suite = useUserDeskSuite();
let idDesk = "";
let idDeskAdminId = 0;

beforeAll(async () => {
  const superAdmin = await login(suite.app, DEMO.superAdmin);
  const created = await createAdmin(suite.app, superAdmin.token, [PERMISSION.ucsiIdMgmt]);
  idDesk = created.token;
  idDeskAdminId = created.admin.id;
});

let serial = 0;
/** A fresh student ID (ten digits) no other test uses. */
const studentId = () =>
  `20${String(process.pid % 10_000).padStart(4, "0")}${String((serial += 1)).padStart(4, "0")}`;
const staffId = () => `S${String(((serial += 1) * 7919) % 100_000).padStart(5, "0")}`;

const link = (body: unknown, token = idDesk) =>
  call(suite.app, token, "POST", "/api/ucsi-ids", body);
const linkCount = async () =>
  (await suite.db.select({ n: sql<number>`count(*)::int` }).from(ucsiIds))[0]!.n;

async function upload(
  content: string | Buffer,
  dryRun?: "true" | "false",
  options: { token?: string; name?: string } = {},
) {
  const form = new FormData();
  if (dryRun !== undefined) form.append("dryRun", dryRun);
  const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
  form.append(
    "file",
    new Blob([new Uint8Array(bytes)], { type: "text/csv" }),
    options.name ?? "ids.csv",
  );
  const encoded = new Response(form);
  return suite.app.inject({
    method: "POST",
    url: "/v1/api/ucsi-ids/import",
    headers: {
      ...auth(options.token ?? idDesk),
      "content-type": encoded.headers.get("content-type")!,
    },
    payload: Buffer.from(await encoded.arrayBuffer()),
  });
}
const csv = (...rows: string[]) => ["ucsi_id,type,account_number", ...rows].join("\r\n");

describe("POST /api/ucsi-ids (link)", () => {
  it("links a trimmed, upper-cased ID to an account and audits it", async () => {
    const user = await insertWalletUser(suite.db);
    const id = staffId();
    const response = await link({
      ucsiId: `  ${id.toLowerCase()} `,
      type: "staff",
      accountNumber: user.accountNumber.toLowerCase(),
    });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json<UcsiIdDto>();
    expect(body).toMatchObject({
      ucsiId: id,
      type: "staff",
      userId: user.id,
      accountNumber: user.accountNumber,
      status: "active",
      linkedBy: idDeskAdminId,
      revokedAt: null,
    });
    const [entry] = await auditEntries(suite.db, "ucsi_ids", body.id);
    expect(entry).toMatchObject({ action: "ucsi_id.create", adminId: idDeskAdminId });
  });

  it("refuses an ID linked twice and a second ID for an account (409), storing nothing", async () => {
    const first = await insertWalletUser(suite.db);
    const second = await insertWalletUser(suite.db);
    const id = studentId();
    expect(
      (await link({ ucsiId: id, type: "student", accountNumber: first.accountNumber })).statusCode,
    ).toBe(201);
    const before = await linkCount();
    const again = await link({ ucsiId: id, type: "student", accountNumber: second.accountNumber });
    expectError(again, 409, "UCSI_ID_ALREADY_LINKED");
    const other = await link({
      ucsiId: studentId(),
      type: "student",
      accountNumber: first.accountNumber,
    });
    expectError(other, 409, "ACCOUNT_ALREADY_LINKED");
    expect(await linkCount()).toBe(before);
  });

  it("is kept to one active link per ID and per account by the database itself", async () => {
    const first = await insertWalletUser(suite.db);
    const second = await insertWalletUser(suite.db);
    const id = studentId();
    await suite.db.insert(ucsiIds).values({ ucsiId: id, type: "student", userId: first.id });
    await expect(
      suite.db.insert(ucsiIds).values({ ucsiId: id, type: "student", userId: second.id }),
    ).rejects.toThrow();
    await expect(
      suite.db.insert(ucsiIds).values({ ucsiId: studentId(), type: "student", userId: first.id }),
    ).rejects.toThrow();
    // A revoked link is history: the ID may be linked again.
    await suite.db
      .update(ucsiIds)
      .set({ status: "revoked", revokedAt: new Date() })
      .where(eq(ucsiIds.ucsiId, id));
    await suite.db.insert(ucsiIds).values({ ucsiId: id, type: "student", userId: second.id });
  });

  it("refuses bad input with a clear error and stores nothing", async () => {
    const user = await insertWalletUser(suite.db);
    const before = await linkCount();
    expectError(
      await link({ ucsiId: studentId(), type: "student", accountNumber: "W999999999" }),
      400,
      "UNKNOWN_ACCOUNT",
    );
    const bad = expectError(
      await link({ ucsiId: "12AB", type: "student", accountNumber: user.accountNumber }),
      400,
      "VALIDATION_ERROR",
    );
    expect(bad.message).toContain("ten digits");
    for (const body of [
      { ucsiId: "S12345", type: "student", accountNumber: user.accountNumber },
      { ucsiId: "1002261234\u0000", type: "student", accountNumber: user.accountNumber },
      { ucsiId: "1002261234", type: "alumni", accountNumber: user.accountNumber },
      { ucsiId: "1002261234", type: "student", accountNumber: "" },
      { ucsiId: 1002261234, type: "student", accountNumber: user.accountNumber },
      { ucsiId: "1002261234", type: "student", accountNumber: user.accountNumber, extra: 1 },
    ]) {
      expectError(await link(body), 400, "VALIDATION_ERROR");
    }
    expect(await linkCount()).toBe(before);
  });
});

describe("POST /api/ucsi-ids/{id}/revoke", () => {
  it("revokes with a remark, audits it, refuses a second revoke (409), and frees the ID", async () => {
    const user = await insertWalletUser(suite.db);
    const id = studentId();
    const created = (
      await link({ ucsiId: id, type: "student", accountNumber: user.accountNumber })
    ).json<UcsiIdDto>();
    expectError(
      await call(suite.app, idDesk, "POST", `/api/ucsi-ids/${created.id}/revoke`, { remark: "  " }),
      400,
      "VALIDATION_ERROR",
    );
    const response = await call(suite.app, idDesk, "POST", `/api/ucsi-ids/${created.id}/revoke`, {
      remark: "Graduated",
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      status: "revoked",
      remark: "Graduated",
      revokedBy: idDeskAdminId,
      revokedAt: expect.any(String),
    });
    const [entry] = await auditEntries(suite.db, "ucsi_ids", created.id);
    expect(entry).toMatchObject({ action: "ucsi_id.revoke", remark: "Graduated" });
    expectError(
      await call(suite.app, idDesk, "POST", `/api/ucsi-ids/${created.id}/revoke`, { remark: "x" }),
      409,
      "UCSI_ID_REVOKED",
    );
    const relinked = await link({ ucsiId: id, type: "student", accountNumber: user.accountNumber });
    expect(relinked.statusCode, relinked.body).toBe(201);
  });
});

describe("GET /api/ucsi-ids/aggregation", () => {
  it("filters by status and type and finds a link by account number", async () => {
    const user = await insertWalletUser(suite.db);
    const id = studentId();
    await link({ ucsiId: id, type: "student", accountNumber: user.accountNumber });
    const params = new URLSearchParams({
      filter: JSON.stringify({ status: "active", type: "student", $search: user.accountNumber }),
    });
    const response = await call(suite.app, idDesk, "GET", `/api/ucsi-ids/aggregation?${params}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ ucsiIds: UcsiIdDto[]; totalCount: number }>();
    expect(body.ucsiIds.map((row) => row.ucsiId)).toEqual([id]);
    expect(body.ucsiIds[0]).toMatchObject({
      userName: user.name,
      linkedByName: expect.any(String),
    });
  });

  it("refuses administrators without UCSI ID Management (403) on every call", async () => {
    expectNoPermission(
      await call(suite.app, suite.finance, "GET", "/api/ucsi-ids/aggregation"),
      "GET",
      "UCSI IDs",
    );
    expectNoPermission(
      await call(suite.app, suite.desk, "GET", "/api/ucsi-ids/import-template"),
      "GET",
      "UCSI ID Import Template",
    );
    const refused = await upload(csv(`${studentId()},student,W100000001`), "true", {
      token: suite.desk,
    });
    expectNoPermission(refused, "POST", "UCSI ID Import");
  });
});

describe("GET /api/ucsi-ids/import-template", () => {
  it("is a CSV with the header the import expects", async () => {
    const response = await call(suite.app, idDesk, "GET", "/api/ucsi-ids/import-template");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/csv");
    expect(response.headers["content-disposition"]).toContain("ucsi-id-import-template.csv");
    expect(response.body.split("\r\n")[0]).toBe("ucsi_id,type,account_number");
  });
});

describe("POST /api/ucsi-ids/import", () => {
  it("dry run: one result per row, each problem named, nothing stored", async () => {
    const free = await insertWalletUser(suite.db);
    const free2 = await insertWalletUser(suite.db);
    const holder = await insertWalletUser(suite.db);
    const taken = studentId();
    await link({ ucsiId: taken, type: "student", accountNumber: holder.accountNumber });
    const other = await insertWalletUser(suite.db);
    const okId = studentId();
    const dupId = staffId();
    const before = await linkCount();
    const response = await upload(
      csv(
        `${okId},student,${free.accountNumber}`,
        `12AB,student,${other.accountNumber}`,
        `${studentId()},student,W999999991`,
        `${okId},student,${other.accountNumber}`,
        `${taken},student,${other.accountNumber}`,
        `${studentId()},student,${holder.accountNumber}`,
        `"=cmd|' /C calc'!A0",staff,${other.accountNumber}`,
        `${dupId},STAFF,${free2.accountNumber.toLowerCase()}`,
        `${studentId()},student`,
      ),
      "true",
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<ImportResult>();
    expect(body).toMatchObject({ dryRun: true, total: 9, valid: 2, invalid: 7, imported: 0 });
    expect(body.rows.map((row) => [row.line, row.result])).toEqual([
      [2, "ok"],
      [3, "bad_format"],
      [4, "unknown_account"],
      [5, "duplicate_in_file"],
      [6, "already_linked"],
      [7, "account_linked"],
      [8, "formula"],
      [9, "ok"],
      [10, "bad_format"],
    ]);
    expect(body.rows[7]).toMatchObject({
      ucsiId: dupId,
      type: "staff",
      accountNumber: free2.accountNumber,
    });
    expect(await linkCount()).toBe(before);
  });

  it("a real import with bad rows stores none of them (400 IMPORT_REJECTED, rows named)", async () => {
    const good = await insertWalletUser(suite.db);
    const before = await linkCount();
    const response = await upload(
      csv(
        `${studentId()},student,${good.accountNumber}`,
        `${studentId()},student,W999999992`,
        `bad,student,${good.accountNumber}`,
      ),
      "false",
    );
    const body = expectError(response, 400, "IMPORT_REJECTED") as unknown as {
      data: { invalid: number; total: number; rows: Array<{ line: number; result: string }> };
    };
    expect(body.data).toMatchObject({ total: 3, invalid: 2 });
    expect(body.data.rows.map((row) => [row.line, row.result])).toEqual([
      [3, "unknown_account"],
      [4, "bad_format"],
    ]);
    expect(await linkCount()).toBe(before);
  });

  it("a clean real import stores every row, each audited, and the same file again stores nothing", async () => {
    const users = await Promise.all([1, 2, 3].map(() => insertWalletUser(suite.db)));
    const ids = [studentId(), staffId(), studentId()];
    const file = csv(
      `${ids[0]},student,${users[0]!.accountNumber}`,
      `${ids[1]},staff,${users[1]!.accountNumber}`,
      `${ids[2]},student,${users[2]!.accountNumber}`,
    );
    const before = await linkCount();
    const response = await upload(`\uFEFF${file}\r\n`, "false");
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ dryRun: false, total: 3, valid: 3, imported: 3 });
    expect(await linkCount()).toBe(before + 3);
    const [row] = await suite.db.select().from(ucsiIds).where(eq(ucsiIds.ucsiId, ids[1]!));
    expect(row).toMatchObject({
      userId: users[1]!.id,
      type: "staff",
      status: "active",
      linkedBy: idDeskAdminId,
    });
    const [entry] = await auditEntries(suite.db, "ucsi_ids", row!.id);
    expect(entry).toMatchObject({ action: "ucsi_id.import", adminId: idDeskAdminId });
    const again = await upload(file, "false");
    expectError(again, 400, "IMPORT_REJECTED");
    expect(await linkCount()).toBe(before + 3);
  });

  it("refuses bad files with a clear error and stores nothing", async () => {
    const user = await insertWalletUser(suite.db);
    const row = `${studentId()},student,${user.accountNumber}`;
    const before = await linkCount();
    const header = expectError(
      await upload(`id,kind,account\r\n${row}`, "false"),
      400,
      "IMPORT_WRONG_HEADER",
    );
    expect(header.message).toContain("ucsi_id,type,account_number");
    // Latin-1 (an é as one byte) and UTF-16 are not UTF-8.
    const latin1 = Buffer.concat([Buffer.from(csv(row)), Buffer.from([0x2c, 0xe9, 0x0d, 0x0a])]);
    expectError(await upload(latin1, "false"), 400, "INVALID_ENCODING");
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(csv(row), "utf16le")]);
    expectError(await upload(utf16, "false"), 400, "INVALID_ENCODING");
    const huge = Buffer.alloc(10 * 1024 * 1024, "1234567890,student,W100000001\r\n");
    expectError(
      await upload(Buffer.concat([Buffer.from(csv() + "\r\n"), huge]), "false"),
      413,
      "IMPORT_TOO_LARGE",
    );
    expectError(await upload(csv(), "false"), 400, "IMPORT_EMPTY");
    expectError(await upload("", "false"), 400, "IMPORT_EMPTY");
    expectError(await upload(`${csv(row)}\r\n"unclosed,student,x`, "false"), 400, "CSV_MALFORMED");
    expectError(await upload(csv(row), "maybe" as "true"), 400, "VALIDATION_ERROR");
    const json = await call(suite.app, idDesk, "POST", "/api/ucsi-ids/import", { file: csv(row) });
    expect(json.statusCode, json.body).toBe(415);
    expect(await linkCount()).toBe(before);
  });
});
