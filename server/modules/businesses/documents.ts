/**
 * A business's documents (registration certificate, bank letter): read, added with a merchant's
 * application or by staff on the business's page, and served. The content is in the database
 * (`business_documents`), so every server instance serves every document; the files are checked
 * by content by the shared reader (server/uploads/document-form.ts).
 */
import { and, desc, eq } from "drizzle-orm";

import {
  BUSINESS_DOCUMENT_FIELDS,
  BUSINESS_DOCUMENT_KINDS,
  type BusinessDocumentKind,
} from "../../../src/shared/documents";
import { GLOBAL_SETTING_DEFAULTS } from "../../../src/shared/global-settings";
import type {
  BusinessApplicationFields,
  BusinessDocuments,
} from "../../../src/shared/schemas/business-documents";
import { recordAudit } from "../../audit";
import type { Db, DbOrTx, Tx } from "../../db";
import { administrators, businessDocuments, businesses, type UserRow } from "../../db/schema";
import { HttpError, notFound } from "../../errors";
import { readSetting } from "../../services/settings";
import type { FormDocument } from "../../uploads/document-form";

/** The form fields that carry files, one per kind of document. */
export const BUSINESS_FILE_FIELDS = BUSINESS_DOCUMENT_KINDS.map(
  (kind) => BUSINESS_DOCUMENT_FIELDS[kind],
);

const kindOfField = (field: string) =>
  BUSINESS_DOCUMENT_KINDS.find((kind) => BUSINESS_DOCUMENT_FIELDS[kind] === field)!;

export const businessDocumentPath = (businessId: number, documentId: string) =>
  `/api/businesses/${businessId}/documents/${documentId}`;

/**
 * One file per kind in a request, and (`required`) every kind present: 400 TOO_MANY_FILES for a
 * second file in one field, 400 DOCUMENT_REQUIRED naming the first field without one.
 */
export function documentsByKind(
  documents: readonly FormDocument[],
  required: boolean,
): Array<FormDocument & { documentKind: BusinessDocumentKind }> {
  const seen = new Set<string>();
  for (const document of documents) {
    if (seen.has(document.field)) {
      throw new HttpError(
        400,
        `Send one file only: the "${document.field}" field takes one file per upload`,
        "TOO_MANY_FILES",
        { field: document.field },
      );
    }
    seen.add(document.field);
  }
  const missing = BUSINESS_FILE_FIELDS.filter((field) => !seen.has(field));
  if ((required && missing.length > 0) || documents.length === 0) {
    const field = missing[0]!;
    throw new HttpError(
      400,
      required
        ? `The application needs its ${field} document (PDF, JPEG or PNG)`
        : `Send at least one document (${BUSINESS_FILE_FIELDS.join(" or ")})`,
      "DOCUMENT_REQUIRED",
      { field },
    );
  }
  return documents.map((document) => ({ ...document, documentKind: kindOfField(document.field) }));
}

/** The business's id if it exists (404 otherwise), locked for the change when `lock`. */
async function businessExists(db: DbOrTx, businessId: number, lock = false): Promise<void> {
  const query = db
    .select({ id: businesses.id })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound("Business");
}

/** A business's documents, newest first, and the kinds it has none of. */
export async function listBusinessDocuments(
  db: DbOrTx,
  businessId: number,
): Promise<BusinessDocuments> {
  await businessExists(db, businessId);
  const rows = await db
    .select({
      id: businessDocuments.id,
      kind: businessDocuments.kind,
      name: businessDocuments.fileName,
      contentType: businessDocuments.contentType,
      size: businessDocuments.size,
      createdAt: businessDocuments.createdAt,
      uploadedByName: administrators.name,
    })
    .from(businessDocuments)
    .leftJoin(administrators, eq(administrators.id, businessDocuments.uploadedBy))
    .where(eq(businessDocuments.businessId, businessId))
    .orderBy(desc(businessDocuments.createdAt), desc(businessDocuments.id));
  return {
    documents: rows.map(({ createdAt, ...row }) => ({
      ...row,
      contentType: row.contentType as BusinessDocuments["documents"][number]["contentType"],
      uploadedByName: row.uploadedByName ?? null,
      uploadedAt: createdAt.toISOString(),
      downloadPath: businessDocumentPath(businessId, row.id),
    })),
    missing: BUSINESS_DOCUMENT_KINDS.filter((kind) => !rows.some((row) => row.kind === kind)),
  };
}

/** One document of one business, with its content; 404 for another business's document. */
export async function businessDocumentOf(db: Db, businessId: number, documentId: string) {
  await businessExists(db, businessId);
  const [row] = await db
    .select({
      fileName: businessDocuments.fileName,
      contentType: businessDocuments.contentType,
      content: businessDocuments.content,
    })
    .from(businessDocuments)
    .where(and(eq(businessDocuments.id, documentId), eq(businessDocuments.businessId, businessId)));
  if (!row) throw notFound("Document");
  return row;
}

async function storeBusinessDocuments(
  tx: Tx,
  businessId: number,
  documents: ReturnType<typeof documentsByKind>,
  uploadedBy: number | null,
) {
  for (const document of documents) {
    await tx.insert(businessDocuments).values({
      id: document.id,
      businessId,
      kind: document.documentKind,
      fileName: document.name,
      contentType: document.contentType,
      size: document.size,
      content: document.content,
      uploadedBy,
    });
  }
}

/** What the audit trail keeps of documents: their kind, name and size, never their content. */
const audited = (documents: ReturnType<typeof documentsByKind>) =>
  documents.map(({ documentKind, name, size }) => ({ kind: documentKind, name, size }));

/** Staff add documents on the business's page (a paper application): stored and audited at once. */
export async function addBusinessDocuments(
  db: Db,
  adminId: number,
  businessId: number,
  documents: ReturnType<typeof documentsByKind>,
): Promise<BusinessDocuments> {
  return db.transaction(async (tx) => {
    await businessExists(tx, businessId, true);
    await storeBusinessDocuments(tx, businessId, documents, adminId);
    await recordAudit(tx, {
      adminId,
      action: "business.add_documents",
      targetTable: "businesses",
      targetId: businessId,
      after: { documents: audited(documents) },
    });
    return listBusinessDocuments(tx, businessId);
  });
}

/**
 * A merchant's application from the wallet app: a pending business owned by the signed-in user,
 * with its documents, at the default fee rate (a Global setting), in one transaction (audited as
 * the system's: no administrator acted).
 */
export async function applyForBusiness(
  db: Db,
  owner: UserRow,
  fields: BusinessApplicationFields,
  documents: ReturnType<typeof documentsByKind>,
) {
  return db.transaction(async (tx) => {
    // The fee rate a new business starts with (Global > default fee rate).
    const setting = await readSetting(tx, "defaultFeeRateBp");
    const feeRateBp =
      Number.isInteger(setting) && (setting as number) >= 0 && (setting as number) <= 10_000
        ? (setting as number)
        : GLOBAL_SETTING_DEFAULTS.defaultFeeRateBp;
    const [business] = await tx
      .insert(businesses)
      .values({ ...fields, feeRateBp, ownerUserId: owner.id, status: "pending" })
      .returning({ id: businesses.id, name: businesses.name });
    if (!business) throw new Error("The business was not inserted");
    await storeBusinessDocuments(tx, business.id, documents, null);
    await recordAudit(tx, {
      adminId: null,
      action: "business.apply",
      targetTable: "businesses",
      targetId: business.id,
      after: {
        ...fields,
        bankAccount: `•••• ${fields.bankAccount.slice(-4)}`,
        ownerAccountNumber: owner.accountNumber,
        documents: audited(documents),
      },
    });
    return {
      id: business.id,
      name: business.name,
      status: "pending" as const,
      documents: documents.map(({ id, documentKind, name }) => ({ id, kind: documentKind, name })),
    };
  });
}
