import fastifyMultipart from "@fastify/multipart";
import { z } from "zod";

import { currentAdmin } from "../../auth/access";
import { notFound } from "../../errors";
import { errorResponses } from "../../../src/shared/schemas/common";
import {
  editRiderFieldsSchema,
  editRiderFormSchema,
  riderAttendanceQuerySchema,
  riderAttendanceSchema,
  riderDetailsQuerySchema,
  riderDetailsSchema,
  riderDocumentQuerySchema,
} from "../../../src/shared/schemas/riders";
import {
  editRider,
  findRider,
  riderAttendanceBetween,
  riderDetails,
  storedDocuments,
} from "./riders";
import { contentDisposition, formFieldsError, streamedBodyCompiler } from "../../uploads/http";
import { readRiderForm, RIDER_FORM_LIMITS } from "../../uploads/rider-form";
import { documentContent } from "../../uploads/storage";
import type { ModuleEndpoints } from "../../kit/bind";
import { answerEtag, requestedVersion, versionsOf } from "../../kit/versions";

const tags = ["riders"];

/** The User (0) module's rider calls: details, verification, attendance, edit and documents. */
export const riderEndpoints: ModuleEndpoints = async (app, { db, bound }) => {
  // Only these routes accept multipart bodies; the rest of the API stays JSON only.
  await app.register(fastifyMultipart, { limits: RIDER_FORM_LIMITS, throwFileSizeLimit: false });

  app.get(
    "/user-mgmt/get-rider-details",
    {
      config: { thing: "Rider Details" },
      schema: {
        tags,
        summary: "A rider's user, rider facts and document list",
        querystring: riderDetailsQuerySchema,
        response: { 200: riderDetailsSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => riderDetails(db, request.query.account_number),
  );

  app.get(
    "/user-mgmt/rider-attendance",
    {
      config: { thing: "Rider Attendance" },
      schema: {
        tags,
        summary: "A rider's attendance between two dates (both included, at most 366 days)",
        querystring: riderAttendanceQuerySchema,
        response: { 200: riderAttendanceSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => riderAttendanceBetween(db, request.query),
  );

  app.post(
    "/user-mgmt/edit-rider-details",
    {
      config: { thing: "Edit Rider Details", versions: versionsOf(bound.module) },
      validatorCompiler: streamedBodyCompiler,
      schema: {
        tags,
        summary: "Change a rider's vehicle, plate and licence and add documents (multipart)",
        consumes: ["multipart/form-data"],
        body: editRiderFormSchema,
        response: { 200: riderDetailsSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const form = await readRiderForm(request);
      const fields = editRiderFieldsSchema.safeParse(form.fields);
      if (!fields.success) throw formFieldsError(fields.error);
      const edit = { fields: fields.data, uploads: form.documents };
      // The user's If-Match (the detail page's record), checked once the user is found.
      const details = await editRider(db, bound, currentAdmin(request), edit, (userId) =>
        requestedVersion(bound, request, userId),
      );
      answerEtag(bound, reply, details.user.id, details.user);
      return details;
    },
  );

  app.get(
    "/user-mgmt/rider-document",
    {
      config: { thing: "Rider Document" },
      schema: {
        tags,
        summary: "Download one of a rider's documents (served with its detected content type)",
        querystring: riderDocumentQuerySchema,
        response: {
          200: z.any().describe("The file, as application/pdf, image/jpeg or image/png"),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const { account_number: accountNumber, document_id: documentId } = request.query;
      const { user, rider } = await findRider(db, accountNumber);
      const document = storedDocuments(rider).find((candidate) => candidate.id === documentId);
      if (!document) throw notFound("Document");
      const content = await documentContent(db, user.id, document.id);
      if (!content) throw notFound("Document file");
      return reply
        .type(document.contentType)
        .header("content-disposition", contentDisposition(document.fileName))
        .header("cache-control", "private, no-store")
        .send(content);
    },
  );
};
