/**
 * Business documents (issue 37, item 4) through HTTP on a real database: a merchant's
 * application carries its registration certificate and bank letter, staff add documents on the
 * business's page, list them and download them with the type detected from their content. Bad
 * files (content not what the name says, over 5 MB, not a PDF/JPEG/PNG) change nothing.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { count, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { buildApp } from "../../server/app";
import { openDatabase } from "../../server/db";
import { businessDocuments, businesses, users } from "../../server/db/schema";
import { DOCUMENT_MAX_BYTES } from "../../src/shared/documents";
import type { BusinessDocuments } from "../../src/shared/schemas/business-documents";
import { auth, createAdmin, DEMO, login, walletAppToken } from "./support/app";
import { POSTGRES_URL } from "./support/database";
import { auditEntries, expectError, useUserDeskSuite } from "./support/user-fixtures";

const suite = useUserDeskSuite();
let staff = "";
let wallet = "";

beforeAll(async () => {
  const superToken = (await login(suite.app, DEMO.superAdmin)).token;
  staff = (await createAdmin(suite.app, superToken, [4])).token;
  wallet = await walletAppToken(suite.testDb);
}, 60_000);

const PDF = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(100, 0x20)]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 9, 9]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(40, 3)]);

interface Upload {
  field: string;
  name: string;
  type: string;
  content: Buffer;
}

const certificate = (over: Partial<Upload> = {}): Upload => ({
  field: "registrationCertificate",
  name: "certificate.pdf",
  type: "application/pdf",
  content: PDF,
  ...over,
});
const letter = (over: Partial<Upload> = {}): Upload => ({
  field: "bankLetter",
  name: "bank letter.png",
  type: "image/png",
  content: PNG,
  ...over,
});

/** Encodes a form the way a browser does, with the platform's own multipart encoder. */
async function multipart(fields: Record<string, string>, uploads: Upload[]) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const upload of uploads) {
    form.append(
      upload.field,
      new Blob([new Uint8Array(upload.content)], { type: upload.type }),
      upload.name,
    );
  }
  const encoded = new Response(form);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get("content-type")!,
  };
}

const APPLICATION = {
  name: "Campus Juice Bar",
  registrationNumber: "202601234567-X",
  category: "cafe",
  bankName: "Maybank",
  bankAccount: "5140123456789",
};

async function apply(fields: Record<string, string>, uploads: Upload[], token = wallet) {
  const { payload, contentType } = await multipart(fields, uploads);
  return suite.app.inject({
    method: "POST",
    url: "/v1/api/app/business-applications",
    headers: { authorization: `Bearer ${token}`, "content-type": contentType },
    payload,
  });
}

async function upload(businessId: number, uploads: Upload[], token = staff) {
  const { payload, contentType } = await multipart({}, uploads);
  return suite.app.inject({
    method: "POST",
    url: `/v1/api/businesses/${businessId}/documents`,
    headers: { ...auth(token), "content-type": contentType },
    payload,
  });
}

const list = (businessId: number, token = staff) =>
  suite.app.inject({ url: `/v1/api/businesses/${businessId}/documents`, headers: auth(token) });

/** A pending business of the test's own, without documents. */
async function pendingBusiness() {
  const [owner] = await suite.db.select({ id: users.id }).from(users).limit(1);
  const [row] = await suite.db
    .insert(businesses)
    .values({
      ownerUserId: owner!.id,
      name: "Paper Application Shop",
      registrationNumber: "202600000001-P",
      category: "other",
      bankName: "CIMB Bank",
      bankAccount: "8001234567",
    })
    .returning({ id: businesses.id });
  return row!.id;
}

async function documentCount() {
  const [row] = await suite.db.select({ n: count() }).from(businessDocuments);
  return row!.n;
}

describe("POST /api/app/business-applications", () => {
  it("creates a pending business with both documents, served byte for byte", async () => {
    const response = await apply(APPLICATION, [certificate(), letter()]);
    expect(response.statusCode, response.body).toBe(200);
    const application = response.json<{ id: number; status: string }>();
    expect(application).toMatchObject({ name: APPLICATION.name, status: "pending" });

    const listed = await list(application.id);
    expect(listed.statusCode, listed.body).toBe(200);
    const { documents, missing } = listed.json<BusinessDocuments>();
    expect(missing).toEqual([]);
    expect(
      documents.map(({ kind, name, contentType, size, uploadedByName }) => ({
        kind,
        name,
        contentType,
        size,
        uploadedByName,
      })),
    ).toEqual(
      expect.arrayContaining([
        {
          kind: "registration_certificate",
          name: "certificate.pdf",
          contentType: "application/pdf",
          size: PDF.length,
          uploadedByName: null,
        },
        {
          kind: "bank_letter",
          name: "bank letter.png",
          contentType: "image/png",
          size: PNG.length,
          uploadedByName: null,
        },
      ]),
    );
    for (const document of documents) {
      const download = await suite.app.inject({
        url: `/v1${document.downloadPath}`,
        headers: auth(staff),
      });
      expect(download.statusCode).toBe(200);
      expect(download.headers["content-type"]).toBe(document.contentType);
      expect(download.headers["x-content-type-options"]).toBe("nosniff");
      expect(download.headers["content-disposition"]).toMatch(/^attachment; filename="/);
      expect(download.rawPayload.equals(document.kind === "bank_letter" ? PNG : PDF)).toBe(true);
    }
    const [entry] = await auditEntries(suite.db, "businesses", application.id);
    expect(entry).toMatchObject({ action: "business.apply", adminId: null });
    expect(JSON.stringify(entry!.after)).toContain("•••• 6789");
    expect(JSON.stringify(entry!.after)).not.toContain("5140123456789");
  });

  it("refuses, storing nothing, a file whose content is not what its name says", async () => {
    const before = await documentCount();
    const [businessesBefore] = await suite.db.select({ n: count() }).from(businesses);
    // A PNG named .pdf (and declared as a PDF).
    const mismatch = await apply(APPLICATION, [certificate({ content: PNG }), letter()]);
    expectError(mismatch, 400, "DOCUMENT_TYPE_MISMATCH");
    expect(mismatch.json()).toMatchObject({
      data: { field: "registrationCertificate", detected: "PNG" },
    });
    // Text dressed as a PDF.
    expectError(
      await apply(APPLICATION, [certificate({ content: Buffer.from("not a pdf") }), letter()]),
      400,
      "INVALID_DOCUMENT_TYPE",
    );
    // Over 5 MB.
    expectError(
      await apply(APPLICATION, [
        certificate(),
        letter({ content: Buffer.concat([PNG, Buffer.alloc(DOCUMENT_MAX_BYTES)]) }),
      ]),
      413,
      "DOCUMENT_TOO_LARGE",
    );
    // A document missing, two in one field, an unknown file field, a bad text field.
    expectError(await apply(APPLICATION, [certificate()]), 400, "DOCUMENT_REQUIRED");
    expectError(await apply(APPLICATION, [certificate(), certificate()]), 400, "TOO_MANY_FILES");
    expectError(
      await apply(APPLICATION, [certificate(), certificate(), letter()]),
      400,
      "TOO_MANY_DOCUMENTS",
    );
    expectError(
      await apply(APPLICATION, [certificate(), letter({ field: "other" })]),
      400,
      "VALIDATION_ERROR",
    );
    expectError(
      await apply({ ...APPLICATION, bankAccount: "12%_" }, [certificate(), letter()]),
      400,
      "VALIDATION_ERROR",
    );
    expectError(
      await apply({ ...APPLICATION, name: "Nul\u0000Shop" }, [certificate(), letter()]),
      400,
      "VALIDATION_ERROR",
    );
    expect(await documentCount()).toBe(before);
    const [businessesAfter] = await suite.db.select({ n: count() }).from(businesses);
    expect(businessesAfter).toEqual(businessesBefore);
  });

  it("needs a wallet app token: a console token is refused", async () => {
    expect((await apply(APPLICATION, [certificate(), letter()], staff)).statusCode).toBe(401);
  });
});

describe("a business's documents on its page", () => {
  it("staff add a document (a JPEG) and see which kinds are still missing", async () => {
    const id = await pendingBusiness();
    expect((await list(id)).json<BusinessDocuments>()).toEqual({
      documents: [],
      missing: ["registration_certificate", "bank_letter"],
    });
    const response = await upload(id, [
      certificate({ name: "scan.JPG", type: "image/jpeg", content: JPEG }),
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<BusinessDocuments>();
    expect(answer.missing).toEqual(["bank_letter"]);
    expect(answer.documents).toMatchObject([
      { kind: "registration_certificate", name: "scan.JPG", contentType: "image/jpeg" },
    ]);
    expect(answer.documents[0]!.uploadedByName).toEqual(expect.any(String));
    const [entry] = await auditEntries(suite.db, "businesses", id);
    expect(entry).toMatchObject({ action: "business.add_documents" });
  });

  it("refuses bad uploads and unknown records, changing nothing", async () => {
    const id = await pendingBusiness();
    const before = await documentCount();
    expectError(await upload(id, [letter({ name: "letter.pdf" })]), 400, "DOCUMENT_TYPE_MISMATCH");
    expectError(await upload(id, []), 400, "DOCUMENT_REQUIRED");
    expectError(await upload(2_000_000_000, [letter()]), 404, "NOT_FOUND");
    const json = await suite.app.inject({
      method: "POST",
      url: `/v1/api/businesses/${id}/documents`,
      headers: auth(staff),
      payload: { bankLetter: "x" },
    });
    expect(json.statusCode).toBe(415);
    expect(await documentCount()).toBe(before);
  });

  it("404 for an unknown business, another business's document or a malformed id", async () => {
    const rows = await suite.db
      .select({ id: businessDocuments.id, businessId: businessDocuments.businessId })
      .from(businessDocuments)
      .limit(50);
    const mine = rows[0]!;
    const other = rows.find((row) => row.businessId !== mine.businessId)!;
    const get = (url: string) => suite.app.inject({ url: `/v1${url}`, headers: auth(staff) });
    expectError(
      await get(`/api/businesses/${mine.businessId}/documents/${other.id}`),
      404,
      "NOT_FOUND",
    );
    expectError(await get(`/api/businesses/2000000000/documents/${mine.id}`), 404, "NOT_FOUND");
    expectError(await get(`/api/businesses/2000000000/documents`), 404, "NOT_FOUND");
    expect((await get(`/api/businesses/${mine.businessId}/documents/..%2F%25`)).statusCode).toBe(
      400,
    );
    expect((await get(`/api/businesses/${mine.businessId}/documents/${mine.id}`)).statusCode).toBe(
      200,
    );
  });

  it("refuses staff without Business (4) on every document route", async () => {
    const [row] = await suite.db
      .select({ id: businessDocuments.id, businessId: businessDocuments.businessId })
      .from(businessDocuments)
      .limit(1);
    const { id, businessId } = row!;
    const before = await documentCount();
    expect((await list(businessId, suite.finance)).statusCode).toBe(403);
    expect(
      (
        await suite.app.inject({
          url: `/v1/api/businesses/${businessId}/documents/${id}`,
          headers: auth(suite.finance),
        })
      ).statusCode,
    ).toBe(403);
    expect((await upload(businessId, [letter()], suite.finance)).statusCode).toBe(403);
    expect(await documentCount()).toBe(before);
  });

  it("the demo's businesses carry documents, a pending one with one missing", async () => {
    const pending = await suite.db
      .select({ id: businesses.id })
      .from(businesses)
      .where(
        inArray(businesses.name, ["Bubble Tea Stall", "Phone Repair Booth", "Vegetarian Delights"]),
      );
    expect(pending).toHaveLength(3);
    const answers = await Promise.all(
      pending.map(async ({ id }) => (await list(id)).json<BusinessDocuments>()),
    );
    expect(answers.every((answer) => answer.documents.length > 0)).toBe(true);
    expect(answers.filter((answer) => answer.missing.includes("bank_letter"))).toHaveLength(1);
  });
});

describe.skipIf(!POSTGRES_URL)("two server instances on one PostgreSQL database", () => {
  it("serve the same document, whichever instance stored it", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "business-documents-second-"));
    const database = await openDatabase({ dataDir, databaseUrl: suite.testDb.url });
    const second = await buildApp({
      config: suite.testDb.config(),
      database,
      distDir: join(dataDir, "no-console-here"),
    });
    try {
      const id = await pendingBusiness();
      const stored = await upload(id, [letter({ content: Buffer.concat([PNG, PNG]) })]);
      expect(stored.statusCode, stored.body).toBe(200);
      const [document] = stored.json<BusinessDocuments>().documents;
      const download = await second.inject({
        url: `/v1${document!.downloadPath}`,
        headers: auth(staff),
      });
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.equals(Buffer.concat([PNG, PNG]))).toBe(true);
    } finally {
      await second.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
