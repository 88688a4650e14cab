import { z } from "zod";

import { BUSINESS_CATEGORIES } from "../domain";
import {
  BUSINESS_DOCUMENT_FIELDS,
  BUSINESS_DOCUMENT_KINDS,
  DOCUMENT_CONTENT_TYPES,
} from "../documents";
import { safeText } from "../text";
import { idParamsSchema, isoDateTime } from "./common";

/** A document id: 128 random bits as hex (server/uploads/storage.ts). */
export const documentIdSchema = z.string().regex(/^[0-9a-f]{32}$/, "Not a document id");

export const businessDocumentParamsSchema = idParamsSchema.extend({
  documentId: documentIdSchema,
});

export const businessDocumentSchema = z
  .object({
    id: z.string().describe("Identifies the document within its business"),
    kind: z.enum(BUSINESS_DOCUMENT_KINDS),
    name: z.string().describe("The file name as uploaded, for display only"),
    contentType: z.enum(DOCUMENT_CONTENT_TYPES).describe("Detected from the file's content"),
    size: z.number().int().describe("Bytes"),
    uploadedAt: isoDateTime,
    uploadedByName: z
      .string()
      .nullable()
      .describe("The administrator who added it on the business's page; null: the application"),
    downloadPath: z.string().describe("GET this path (relative to the API base) for the file"),
  })
  .meta({ id: "BusinessDocument" });
export type BusinessDocumentDto = z.output<typeof businessDocumentSchema>;

export const businessDocumentsSchema = z
  .object({
    documents: z.array(businessDocumentSchema).describe("Newest first"),
    missing: z
      .array(z.enum(BUSINESS_DOCUMENT_KINDS))
      .describe("The kinds of document the business has none of yet"),
  })
  .meta({ id: "BusinessDocuments" });
export type BusinessDocuments = z.output<typeof businessDocumentsSchema>;

const file = (what: string) =>
  z
    .string()
    .meta({ format: "binary" })
    .describe(`${what}: PDF, JPEG or PNG, 5 MB at most, named as its content (.pdf, .jpg, .png)`);

/** The files of a business's documents form, one per kind, each optional (staff add either). */
export const businessDocumentFilesSchema = z.strictObject({
  [BUSINESS_DOCUMENT_FIELDS.registration_certificate]: file("The registration certificate"),
  [BUSINESS_DOCUMENT_FIELDS.bank_letter]: file("The bank's letter for the settlement account"),
});

/** Staff adding documents on the business's page: at least one of the two files. */
export const businessDocumentsFormSchema = businessDocumentFilesSchema
  .partial()
  .meta({ id: "BusinessDocumentsForm" });

/** The text fields of a merchant's business application (the rules of a business update). */
export const businessApplicationFieldsSchema = z.strictObject({
  name: safeText().trim().min(1).max(120),
  registrationNumber: safeText().trim().min(1).max(40),
  category: z.enum(BUSINESS_CATEGORIES),
  bankName: safeText().trim().min(1).max(80),
  bankAccount: z.string().regex(/^[0-9]{6,20}$/, "Bank account must be 6 to 20 digits"),
});
export type BusinessApplicationFields = z.output<typeof businessApplicationFieldsSchema>;

/** The whole application form, for the OpenAPI document (the handler reads it as a stream). */
export const businessApplicationFormSchema = businessApplicationFieldsSchema
  .extend(businessDocumentFilesSchema.shape)
  .meta({ id: "BusinessApplicationForm" });

export const businessApplicationSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    status: z.enum(["pending"]),
    documents: z.array(businessDocumentSchema.pick({ id: true, kind: true, name: true })),
  })
  .meta({ id: "BusinessApplication" });
