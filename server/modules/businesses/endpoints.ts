import fastifyMultipart from "@fastify/multipart";
import { z } from "zod";

import { errorResponses, idParamsSchema } from "../../../src/shared/schemas/common";
import {
  businessApplicationFieldsSchema,
  businessApplicationFormSchema,
  businessApplicationSchema,
  businessDocumentParamsSchema,
  businessDocumentsFormSchema,
  businessDocumentsSchema,
} from "../../../src/shared/schemas/business-documents";
import { currentAdmin } from "../../auth/access";
import type { ModuleEndpoints } from "../../kit/bind";
import {
  documentFormLimits,
  readDocumentForm,
  type DocumentFormOptions,
} from "../../uploads/document-form";
import { formFieldsError, sendDocument, streamedBodyCompiler } from "../../uploads/http";
import {
  addBusinessDocuments,
  applyForBusiness,
  BUSINESS_FILE_FIELDS,
  businessDocumentOf,
  documentsByKind,
  listBusinessDocuments,
} from "./documents";

const tags = ["businesses"];
const UPLOAD_RULES =
  "Each file PDF, JPEG or PNG by its content and named as its content is (.pdf, .jpg/.jpeg, " +
  ".png), 5 MB at most: 400 INVALID_DOCUMENT_TYPE, 400 DOCUMENT_TYPE_MISMATCH (a PNG named " +
  ".pdf), 413 DOCUMENT_TOO_LARGE, 400 INVALID_DOCUMENT (empty), 400 TOO_MANY_FILES (two in one " +
  "field), 415 UNSUPPORTED_MEDIA_TYPE (not multipart). Nothing is stored unless all is good.";

const formOptions = (what: string): DocumentFormOptions => ({
  fileFields: BUSINESS_FILE_FIELDS,
  maxFiles: BUSINESS_FILE_FIELDS.length,
  what,
  nameMustMatch: true,
});

/**
 * A business's documents under Business (4): the list, one document's file, staff adding
 * documents (a paper application); and the wallet app's business application with its documents.
 */
export const businessEndpoints: ModuleEndpoints = async (app, { db }) => {
  // Only these routes accept multipart bodies; the rest of the API stays JSON only.
  await app.register(fastifyMultipart, {
    limits: documentFormLimits(BUSINESS_FILE_FIELDS.length),
    throwFileSizeLimit: false,
  });

  app.get(
    "/api/businesses/:id/documents",
    {
      config: { thing: "Business Documents" },
      schema: {
        tags,
        summary: "A business's documents, newest first, and the kinds it has none of yet",
        params: idParamsSchema,
        response: { 200: businessDocumentsSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => listBusinessDocuments(db, request.params.id),
  );

  app.post(
    "/api/businesses/:id/documents",
    {
      config: { thing: "Business Documents" },
      validatorCompiler: streamedBodyCompiler,
      schema: {
        tags,
        summary: "Add a business's registration certificate and/or bank letter (multipart)",
        description: `At least one file (400 DOCUMENT_REQUIRED). ${UPLOAD_RULES}`,
        consumes: ["multipart/form-data"],
        params: idParamsSchema,
        body: businessDocumentsFormSchema,
        response: { 200: businessDocumentsSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const form = await readDocumentForm(request, formOptions("the documents"));
      const fields = z.strictObject({}).safeParse(form.fields);
      if (!fields.success) throw formFieldsError(fields.error);
      const documents = documentsByKind(form.documents, false);
      return addBusinessDocuments(db, currentAdmin(request).id, request.params.id, documents);
    },
  );

  app.get(
    "/api/businesses/:id/documents/:documentId",
    {
      config: { thing: "Business Document" },
      schema: {
        tags,
        summary: "Download one of a business's documents (served with its detected content type)",
        params: businessDocumentParamsSchema,
        response: {
          200: z.any().describe("The file, as application/pdf, image/jpeg or image/png"),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const document = await businessDocumentOf(db, request.params.id, request.params.documentId);
      return sendDocument(reply, document);
    },
  );

  app.post(
    "/api/app/business-applications",
    {
      config: { access: "wallet" },
      validatorCompiler: streamedBodyCompiler,
      schema: {
        tags: ["wallet app"],
        summary: "Apply for a business, with its registration certificate and bank letter",
        description:
          "Needs a wallet app token. Creates a pending business owned by the signed-in user, " +
          "which staff approve or reject (Business > Approval). Both documents are required " +
          `(400 DOCUMENT_REQUIRED naming the field). ${UPLOAD_RULES}`,
        consumes: ["multipart/form-data"],
        body: businessApplicationFormSchema,
        response: { 200: businessApplicationSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      if (!request.walletUser) throw new Error("A business application without its wallet user");
      const form = await readDocumentForm(request, formOptions("the business application"));
      const fields = businessApplicationFieldsSchema.safeParse(form.fields);
      if (!fields.success) throw formFieldsError(fields.error);
      const documents = documentsByKind(form.documents, true);
      return applyForBusiness(db, request.walletUser, fields.data, documents);
    },
  );
};
