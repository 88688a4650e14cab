import { existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { and, desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { App } from "../../server/app";
import {
  auditLog,
  riderAttendance,
  riderDocumentFiles,
  riders,
  users,
} from "../../server/db/schema";
import { importDocumentsFromDisk } from "../../server/uploads/storage";
import type { RiderAttendance, RiderDetails } from "../../src/shared/schemas/riders";
import { DOCUMENT_MAX_BYTES } from "../../src/shared/riders";
import { etagOf } from "../../src/shared/kit/versions";
import { auth, createTestApp, DEMO, login } from "./support/app";
import { createTestDatabase, type TestDatabase } from "./support/database";

let testDb: TestDatabase;
let app: App;
let token: string;
let deskAdminId: number;
/** Logged in once: each login hashes a password, slowly on purpose. */
let financeToken: string;
/** Riders by purpose, so each test starts from a known verification state. */
const ids = { details: 0, approve: 0, reject: 0, decided: 0, edit: 0, agent: 0 };
const ACCOUNT = {
  details: "RT0000001",
  approve: "RT0000002",
  reject: "RT0000003",
  decided: "RT0000004",
  edit: "RT0000005",
  agent: "RT0000006",
} as const;

async function insertFixtures() {
  const db = testDb.database.db;
  const rows = await db
    .insert(users)
    .values(
      Object.entries(ACCOUNT).map(([key, accountNumber]) => ({
        accountNumber,
        name: `Rider ${key}`,
        role: key === "agent" ? ("agent" as const) : ("rider" as const),
      })),
    )
    .returning();
  for (const row of rows) {
    const key = Object.entries(ACCOUNT).find(([, account]) => account === row.accountNumber)![0];
    ids[key as keyof typeof ids] = row.id;
  }
  await db.insert(riders).values(
    (["details", "approve", "reject", "decided", "edit"] as const).map((key) => ({
      userId: ids[key],
      vehicleType: "motorcycle",
      plate: "WA 1234",
      licenceNumber: "D12345678",
      verificationStatus: key === "decided" ? ("Approved" as const) : ("pending" as const),
    })),
  );
  await db.insert(riderAttendance).values([
    {
      userId: ids.details,
      date: "2026-03-01",
      clockIn: new Date("2026-03-01T01:00:00Z"),
      clockOut: new Date("2026-03-01T09:30:00Z"),
    },
    {
      userId: ids.details,
      date: "2026-03-02",
      clockIn: new Date("2026-03-02T01:00:00Z"),
      clockOut: null,
    },
    {
      userId: ids.details,
      date: "2026-04-01",
      clockIn: new Date("2026-04-01T02:00:00Z"),
      clockOut: new Date("2026-04-01T03:15:59Z"),
    },
  ]);
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb);
  const desk = await login(app, DEMO.userDesk);
  token = desk.token;
  deskAdminId = desk.admin.id;
  financeToken = (await login(app, DEMO.finance)).token;
  await insertFixtures();
});

afterAll(async () => {
  await app?.close();
  await testDb?.destroy();
});

const get = (path: string, query: Record<string, string>, as = token) =>
  app.inject({
    url: `/v1/user-mgmt/${path}?${new URLSearchParams(query).toString()}`,
    headers: auth(as),
  });
const post = (path: string, payload: object, as = token) =>
  app.inject({ method: "POST", url: `/v1/user-mgmt/${path}`, headers: auth(as), payload });

async function storedRider(id: number) {
  const [row] = await testDb.database.db.select().from(riders).where(eq(riders.userId, id));
  return row!;
}

async function auditsOf(id: number, action: string) {
  return testDb.database.db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.targetTable, "users"),
        eq(auditLog.targetId, String(id)),
        eq(auditLog.action, action),
      ),
    )
    .orderBy(desc(auditLog.id));
}

/** Every stored document's content, as "<rider id>/<document id>"; none is kept on disk. */
async function storedFiles(): Promise<string[]> {
  expect(existsSync(join(testDb.dataDir, "documents"))).toBe(false);
  const rows = await testDb.database.db
    .select({ id: riderDocumentFiles.id, riderUserId: riderDocumentFiles.riderUserId })
    .from(riderDocumentFiles);
  return rows.map((row) => `${row.riderUserId}/${row.id}`).sort();
}

describe("GET /user-mgmt/get-rider-details", () => {
  it("returns the rider's user, facts and (empty) document list", async () => {
    const response = await get("get-rider-details", {
      account_number: ACCOUNT.details,
      user_type: "rider",
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<RiderDetails>()).toMatchObject({
      user: { id: ids.details, accountNumber: ACCOUNT.details, role: "rider" },
      rider: {
        vehicleType: "motorcycle",
        plate: "WA 1234",
        licenceNumber: "D12345678",
        verificationStatus: "pending",
        verificationRemarks: null,
        documents: [],
      },
    });
  });

  it("404 for an unknown account and for a user who is not a rider", async () => {
    const unknown = await get("get-rider-details", { account_number: "NOPE", user_type: "rider" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: "NOT_FOUND", message: "User not found" });
    const agent = await get("get-rider-details", {
      account_number: ACCOUNT.agent,
      user_type: "rider",
    });
    expect(agent.statusCode).toBe(404);
    expect(agent.json()).toEqual({ code: "NOT_FOUND", message: "Rider not found" });
  });

  it("400 for a user_type other than rider, and for a missing account_number", async () => {
    const wrongType = await get("get-rider-details", {
      account_number: ACCOUNT.details,
      user_type: "agent",
    });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().message).toMatch(/^Invalid user_type: /);
    const missing = await get("get-rider-details", { user_type: "rider" });
    expect(missing.json()).toMatchObject({ message: "Invalid account_number: Required" });
  });
});

describe("POST /user-mgmt/action-rider-verification", () => {
  it("approves a pending rider (remarks optional) and audits it", async () => {
    const response = await post("action-rider-verification", {
      account_number: ACCOUNT.approve,
      action: "Approved",
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<RiderDetails>().rider.verificationStatus).toBe("Approved");
    expect((await storedRider(ids.approve)).verificationStatus).toBe("Approved");
    const [entry] = await auditsOf(ids.approve, "rider.verify");
    expect(entry).toMatchObject({
      adminId: deskAdminId,
      remark: null,
      before: { verificationStatus: "pending", verificationRemarks: null },
      after: { verificationStatus: "Approved", verificationRemarks: null },
    });
  });

  it("requires remarks (1–500) to reject, and refuses overlong remarks on approval", async () => {
    const cases = [
      [{ action: "Rejected" }, "Invalid remarks: "],
      [{ action: "Rejected", remarks: "   " }, "Invalid remarks: Required when rejecting"],
      [{ action: "Rejected", remarks: "x".repeat(501) }, "Invalid remarks: "],
      [{ action: "Approved", remarks: "x".repeat(501) }, "Invalid remarks: "],
      [{ action: "Maybe" }, "Invalid action: "],
      [{ action: "Rejected", remarks: "ok", extra: 1 }, "Invalid extra: Unknown field"],
    ] as const;
    for (const [payload, message] of cases) {
      const response = await post("action-rider-verification", {
        account_number: ACCOUNT.reject,
        ...payload,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toContain(message);
    }
    expect((await storedRider(ids.reject)).verificationStatus).toBe("pending");
    expect(await auditsOf(ids.reject, "rider.verify")).toEqual([]);
  });

  it("rejects with remarks, then refuses a second decision with 409 ALREADY_DECIDED", async () => {
    const rejected = await post("action-rider-verification", {
      account_number: ACCOUNT.reject,
      action: "Rejected",
      remarks: "  Licence photo is blurred  ",
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(await storedRider(ids.reject)).toMatchObject({
      verificationStatus: "Rejected",
      verificationRemarks: "Licence photo is blurred",
    });
    const [entry] = await auditsOf(ids.reject, "rider.verify");
    expect(entry?.remark).toBe("Licence photo is blurred");

    for (const account of [ACCOUNT.reject, ACCOUNT.decided]) {
      const again = await post("action-rider-verification", {
        account_number: account,
        action: "Approved",
      });
      expect(again.statusCode).toBe(409);
      expect(again.json().code).toBe("ALREADY_DECIDED");
    }
    expect((await storedRider(ids.decided)).verificationStatus).toBe("Approved");
    expect(await auditsOf(ids.reject, "rider.verify")).toHaveLength(1);
  });

  it("404 for a user who is not a rider", async () => {
    const response = await post("action-rider-verification", {
      account_number: ACCOUNT.agent,
      action: "Approved",
    });
    expect(response.statusCode).toBe(404);
  });
});

describe("GET /user-mgmt/rider-attendance", () => {
  const attendance = (start: string, end: string, account: string = ACCOUNT.details) =>
    get("rider-attendance", { account_number: account, start_date: start, end_date: end });

  it("lists the days in range with clock-in, clock-out and worked minutes", async () => {
    const response = await attendance("2026-03-01", "2026-03-31");
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<RiderAttendance>()).toEqual({
      accountNumber: ACCOUNT.details,
      startDate: "2026-03-01",
      endDate: "2026-03-31",
      days: [
        {
          date: "2026-03-01",
          clockIn: "2026-03-01T01:00:00.000Z",
          clockOut: "2026-03-01T09:30:00.000Z",
          workedMinutes: 510,
        },
        {
          date: "2026-03-02",
          clockIn: "2026-03-02T01:00:00.000Z",
          clockOut: null,
          workedMinutes: null,
        },
      ],
      totalWorkedMinutes: 510,
    });
    const oneDay = (await attendance("2026-04-01", "2026-04-01")).json<RiderAttendance>();
    expect(oneDay.days.map((day) => day.workedMinutes)).toEqual([75]);
  });

  it("accepts a range of exactly 366 days and refuses a longer one", async () => {
    expect((await attendance("2024-01-01", "2024-12-31")).statusCode).toBe(200);
    const tooLong = await attendance("2025-01-01", "2026-01-02");
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toBe("Invalid end_date: The range spans more than 366 days");
  });

  it("refuses an end before the start and malformed or impossible dates", async () => {
    const backwards = await attendance("2026-03-02", "2026-03-01");
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toBe("Invalid end_date: Before start_date");
    for (const [start, end, field] of [
      ["2026-02-30", "2026-03-01", "start_date"],
      ["2026-3-01", "2026-03-01", "start_date"],
      ["2026-03-01", "tomorrow", "end_date"],
      ["2026-03-01", "2026-13-01", "end_date"],
    ] as const) {
      const response = await attendance(start, end);
      expect(response.statusCode, `${start}..${end}`).toBe(400);
      expect(response.json().message).toMatch(new RegExp(`^Invalid ${field}: `));
    }
  });

  it("404 for a user who is not a rider", async () => {
    expect((await attendance("2026-03-01", "2026-03-02", ACCOUNT.agent)).statusCode).toBe(404);
  });
});

const PDF = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(100, 0x20)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(50, 1)]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);

interface Upload {
  field?: string;
  name: string;
  type: string;
  content: Buffer;
}

/** Encodes a form the way a browser does, with the platform's own multipart encoder. */
async function multipart(fields: Record<string, string>, uploads: Upload[] = []) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const upload of uploads) {
    const blob = new Blob([new Uint8Array(upload.content)], { type: upload.type });
    form.append(upload.field ?? "documents", blob, upload.name);
  }
  const encoded = new Response(form);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get("content-type")!,
  };
}

async function editRider(
  fields: Record<string, string>,
  uploads: Upload[] = [],
  as = token,
  headers: Record<string, string> = {},
) {
  const { payload, contentType } = await multipart(fields, uploads);
  return app.inject({
    method: "POST",
    url: "/v1/user-mgmt/edit-rider-details",
    headers: { ...auth(as), "content-type": contentType, ...headers },
    payload,
  });
}

describe("POST /user-mgmt/edit-rider-details", () => {
  it("changes the facts, stores the documents under random names and audits names only", async () => {
    const response = await editRider(
      {
        account_number: ACCOUNT.edit,
        vehicle_type: "car",
        plate: "  VBE 88 ",
        licence_number: "D99",
      },
      [
        { name: "licence.pdf", type: "application/pdf", content: PDF },
        // Declared JPEG but a PNG inside: the content decides what it is served as.
        { name: "../../photo 照片.jpg", type: "image/jpeg", content: PNG },
      ],
    );
    expect(response.statusCode, response.body).toBe(200);
    const { rider } = response.json<RiderDetails>();
    expect(rider).toMatchObject({ vehicleType: "car", plate: "VBE 88", licenceNumber: "D99" });
    expect(
      rider.documents.map(({ name, contentType, size }) => ({ name, contentType, size })),
    ).toEqual([
      { name: "licence.pdf", contentType: "application/pdf", size: PDF.length },
      { name: "photo 照片.jpg", contentType: "image/png", size: PNG.length },
    ]);
    expect(await storedFiles()).toEqual(
      rider.documents.map((document) => `${ids.edit}/${document.id}`).sort(),
    );
    expect(await storedRider(ids.edit)).toMatchObject({ vehicleType: "car", plate: "VBE 88" });
    const [entry] = await auditsOf(ids.edit, "rider.edit");
    expect(entry).toMatchObject({
      adminId: deskAdminId,
      before: {
        vehicleType: "motorcycle",
        plate: "WA 1234",
        licenceNumber: "D12345678",
        documents: [],
      },
      after: {
        vehicleType: "car",
        plate: "VBE 88",
        licenceNumber: "D99",
        documents: ["licence.pdf", "photo 照片.jpg"],
      },
    });

    const details = await get("get-rider-details", {
      account_number: ACCOUNT.edit,
      user_type: "rider",
    });
    expect(details.json<RiderDetails>().rider.documents).toEqual(rider.documents);
    const download = await app.inject({
      url: `/v1${rider.documents[1]!.downloadPath}`,
      headers: auth(token),
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-type"]).toBe("image/png");
    expect(download.headers["content-disposition"]).toContain(
      "filename*=UTF-8''photo%20%E7%85%A7%E7%89%87.jpg",
    );
    expect(download.rawPayload.equals(PNG)).toBe(true);
  });

  it("moves a document an earlier version kept under DATA_DIR into the database", async () => {
    const id = "0123456789abcdef0123456789abcdef";
    const listed = {
      id,
      kind: "pdf",
      fileName: "old licence.pdf",
      path: `documents/${ids.details}/${id}`,
      contentType: "application/pdf",
      size: PDF.length,
      uploadedAt: "2026-01-05T08:00:00.000Z",
    };
    const db = testDb.database.db;
    await db
      .update(riders)
      .set({ documents: [listed] })
      .where(eq(riders.userId, ids.details));
    const folder = join(testDb.dataDir, "documents", String(ids.details));
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, id), PDF);
    const unlisted = join(folder, "f".repeat(32));
    await writeFile(unlisted, PNG);

    expect(await importDocumentsFromDisk(db, testDb.dataDir)).toBe(1);
    expect(await importDocumentsFromDisk(db, testDb.dataDir)).toBe(0);
    expect(existsSync(join(folder, id))).toBe(false);
    // A file no rider lists is nobody's to move.
    expect(existsSync(unlisted)).toBe(true);
    const download = await get("rider-document", {
      account_number: ACCOUNT.details,
      document_id: id,
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(PDF)).toBe(true);

    await db.update(riders).set({ documents: [] }).where(eq(riders.userId, ids.details));
    await db.delete(riderDocumentFiles).where(eq(riderDocumentFiles.id, id));
    await rm(join(testDb.dataDir, "documents"), { recursive: true, force: true });
  });

  describe("refuses bad input, changing nothing and leaving no file behind", () => {
    const cases: Array<[string, Record<string, string>, Upload[], number, RegExp]> = [
      [
        "a document over 5 MB",
        {},
        [
          { name: "ok.pdf", type: "application/pdf", content: PDF },
          {
            name: "big.png",
            type: "image/png",
            content: Buffer.concat([PNG, Buffer.alloc(DOCUMENT_MAX_BYTES)]),
          },
        ],
        413,
        /^Document "big.png" is larger than 5 MB$/,
      ],
      [
        "text declared as a PNG (magic bytes)",
        {},
        [{ name: "fake.png", type: "image/png", content: Buffer.from("hello, not an image") }],
        400,
        /^Document "fake.png" is not an allowed type \(its content is not PDF, JPEG, PNG\)$/,
      ],
      [
        "a PDF declared as something else",
        {},
        [{ name: "notes.txt", type: "text/plain", content: PDF }],
        400,
        /declared as text\/plain/,
      ],
      [
        "six documents",
        {},
        Array.from({ length: 6 }, (_, i) => ({
          name: `doc${i}.jpg`,
          type: "image/jpeg",
          content: JPEG,
        })),
        400,
        /^Too many documents: at most 5 per request$/,
      ],
      [
        "a missing account_number",
        { account_number: "" },
        [{ name: "ok.pdf", type: "application/pdf", content: PDF }],
        400,
        /^Invalid account_number: Required$/,
      ],
      [
        "a bad plate",
        { plate: "WA<script>" },
        [{ name: "ok.pdf", type: "application/pdf", content: PDF }],
        400,
        /^Invalid plate: /,
      ],
      ["an unknown vehicle type", { vehicle_type: "rocket" }, [], 400, /^Invalid vehicle_type: /],
      [
        "an unknown field",
        { colour: "red" },
        [{ name: "ok.pdf", type: "application/pdf", content: PDF }],
        400,
        /^Invalid colour: Unknown field$/,
      ],
      [
        "a file under another field name",
        {},
        [{ field: "photo", name: "ok.pdf", type: "application/pdf", content: PDF }],
        400,
        /^Invalid photo: Unknown field/,
      ],
    ];

    it.each(cases)("%s", async (_name, fields, uploads, status, message) => {
      const before = await storedRider(ids.edit);
      const filesBefore = await storedFiles();
      const audits = (await auditsOf(ids.edit, "rider.edit")).length;
      const response = await editRider({ account_number: ACCOUNT.edit, ...fields }, uploads);
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().message).toMatch(message);
      expect(await storedRider(ids.edit)).toEqual(before);
      expect(await storedFiles()).toEqual(filesBefore);
      expect(await auditsOf(ids.edit, "rider.edit")).toHaveLength(audits);
    });
  });

  it("404 for a user who is not a rider, keeping no uploaded file", async () => {
    const filesBefore = await storedFiles();
    const response = await editRider({ account_number: ACCOUNT.agent }, [
      { name: "ok.pdf", type: "application/pdf", content: PDF },
    ]);
    expect(response.statusCode).toBe(404);
    expect(await storedFiles()).toEqual(filesBefore);
  });

  it("is a change of the user's version: If-Match of the detail page checked, bumped when it changes", async () => {
    const detail = await app.inject({ url: `/v1/api/users/${ids.edit}`, headers: auth(token) });
    const etag = detail.headers.etag as string;
    const { version } = detail.json<{ version: number }>();
    expect(etag).toBe(etagOf("users", ids.edit, version));
    const fields = { account_number: ACCOUNT.edit, plate: "VV 1" };

    const applied = await editRider(fields, [], token, { "if-match": etag });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.headers.etag).toBe(etagOf("users", ids.edit, version + 1));
    const versionOfAnswer = (answer: typeof applied) =>
      (answer.json<RiderDetails>().user as { version?: number }).version;
    expect(versionOfAnswer(applied)).toBe(version + 1);
    // Saved again as it is: nothing changes, so neither does the version, and the row is not
    // even written (a write would tell every open page of the user that it changed).
    const rowVersion = async () =>
      (
        await testDb.database.db.execute(
          sql`select xmin::text as xmin from riders where user_id = ${ids.edit}`,
        )
      ).rows[0] as { xmin: string };
    const written = await rowVersion();
    const same = await editRider(fields, [], token, { "if-match": applied.headers.etag as string });
    expect(same.statusCode, same.body).toBe(200);
    expect(versionOfAnswer(same)).toBe(version + 1);
    expect(await rowVersion()).toEqual(written);

    const before = await storedRider(ids.edit);
    const audits = (await auditsOf(ids.edit, "rider.edit")).length;
    const stale = await editRider({ ...fields, plate: "VV 2" }, [], token, { "if-match": etag });
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json()).toMatchObject({
      code: "VERSION_CONFLICT",
      data: { version: version + 1, yourVersion: version, lastChange: { action: "rider.edit" } },
    });
    const other = await editRider({ ...fields, plate: "VV 3" }, [], token, {
      "if-match": etagOf("users", ids.agent, 1),
    });
    expect(other.statusCode, other.body).toBe(400);
    expect(other.json().code).toBe("IF_MATCH_OTHER_RECORD");
    const garbage = await editRider({ ...fields, plate: "VV 4" }, [], token, { "if-match": "W/1" });
    expect(garbage.json().code).toBe("IF_MATCH_INVALID");
    expect(await storedRider(ids.edit)).toEqual(before);
    expect(await auditsOf(ids.edit, "rider.edit")).toHaveLength(audits);
  });

  it("415 for a JSON body", async () => {
    const response = await post("edit-rider-details", { account_number: ACCOUNT.edit });
    expect(response.statusCode).toBe(415);
    expect(response.json().message).toBe("Send the rider details as multipart/form-data");
  });
});

describe("GET /user-mgmt/rider-document", () => {
  it("404 for a document the rider does not have, 400 for a malformed id", async () => {
    const missing = await get("rider-document", {
      account_number: ACCOUNT.edit,
      document_id: "0".repeat(32),
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: "NOT_FOUND", message: "Document not found" });
    const malformed = await get("rider-document", {
      account_number: ACCOUNT.edit,
      document_id: "../../jwt-secret",
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toMatch(/^Invalid document_id: /);
  });
});

describe("who may use the rider calls", () => {
  const query = { account_number: ACCOUNT.details };
  const calls: Array<[string, () => Promise<{ statusCode: number; json(): unknown }>]> = [
    [
      "GET Rider Details",
      () => get("get-rider-details", { ...query, user_type: "rider" }, financeToken),
    ],
    [
      "POST Rider Verification",
      () => post("action-rider-verification", { ...query, action: "Approved" }, financeToken),
    ],
    [
      "GET Rider Attendance",
      () =>
        get(
          "rider-attendance",
          { ...query, start_date: "2026-03-01", end_date: "2026-03-02" },
          financeToken,
        ),
    ],
    [
      "POST Edit Rider Details",
      () =>
        editRider(query, [{ name: "ok.pdf", type: "application/pdf", content: PDF }], financeToken),
    ],
    [
      "GET Rider Document",
      () => get("rider-document", { ...query, document_id: "0".repeat(32) }, financeToken),
    ],
  ];

  it.each(calls)("%s: 403 for finance, who lacks code 0", async (thing, call) => {
    const before = await storedRider(ids.details);
    const filesBefore = await storedFiles();
    const response = await call();
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: `You have no permission to access ${thing}` });
    expect(await storedRider(ids.details)).toEqual(before);
    expect(await storedFiles()).toEqual(filesBefore);
  });
});

describe("the OpenAPI document", () => {
  it("publishes the rider schemas and the multipart form", async () => {
    const document = (await app.inject({ url: "/v1/docs/json" })).json();
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(["RiderDetails", "RiderDocument", "RiderAttendance"]),
    );
    const edit = document.paths["/v1/user-mgmt/edit-rider-details"].post;
    expect(Object.keys(edit.requestBody.content)).toEqual(["multipart/form-data"]);
  });
});

// The seed's call above is an alias of the users declaration's rider-verification action; this
// is the action's own route, which the console's dialog calls.
describe("PATCH /api/users/{id}/rider-verification", () => {
  async function pendingRider(accountNumber: string) {
    const db = testDb.database.db;
    const [user] = await db
      .insert(users)
      .values({ accountNumber, name: `Rider ${accountNumber}`, role: "rider" })
      .returning();
    await db.insert(riders).values({
      userId: user!.id,
      vehicleType: "car",
      plate: "WB 4321",
      licenceNumber: "D87654321",
      verificationStatus: "pending",
    });
    return user!.id;
  }
  const patch = (id: number, payload: object, as = token) =>
    app.inject({
      method: "PATCH",
      url: `/v1/api/users/${id}/rider-verification`,
      headers: auth(as),
      payload,
    });

  it("rejects with the trimmed remark, audits rider.verify, then refuses with 409", async () => {
    const id = await pendingRider("RT0000101");
    for (const payload of [{ action: "Rejected" }, { action: "Rejected", remark: "  " }]) {
      expect((await patch(id, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    const rejected = await patch(id, { action: "Rejected", remark: "  Plate unreadable " });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json()).toMatchObject({ id, accountNumber: "RT0000101" });
    expect(await storedRider(id)).toMatchObject({
      verificationStatus: "Rejected",
      verificationRemarks: "Plate unreadable",
    });
    const [entry] = await auditsOf(id, "rider.verify");
    expect(entry).toMatchObject({
      adminId: deskAdminId,
      remark: "Plate unreadable",
      before: { verificationStatus: "pending", verificationRemarks: null },
      after: { verificationStatus: "Rejected", verificationRemarks: "Plate unreadable" },
    });
    const again = await patch(id, { action: "Approved" });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: "ALREADY_DECIDED",
      message: "This rider's verification was already decided",
    });
    expect(await auditsOf(id, "rider.verify")).toHaveLength(1);
  });

  it("approves without a remark; 404 Rider for a user who is no rider; 403 for finance", async () => {
    const id = await pendingRider("RT0000102");
    expect((await patch(id, { action: "Approved" }, financeToken)).statusCode).toBe(403);
    const approved = await patch(id, { action: "Approved" });
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await storedRider(id)).verificationStatus).toBe("Approved");
    const [entry] = await auditsOf(id, "rider.verify");
    expect(entry?.remark).toBeNull();
    const agent = await patch(ids.agent, { action: "Approved" });
    expect(agent.statusCode).toBe(404);
    expect(agent.json()).toEqual({ code: "NOT_FOUND", message: "Rider not found" });
  });
});
