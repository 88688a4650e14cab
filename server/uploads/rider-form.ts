import type { FastifyRequest } from "fastify";

import { DOCUMENTS_FIELD, DOCUMENTS_PER_REQUEST } from "../../src/shared/riders";
import { documentFormLimits, readDocumentForm, type DocumentForm } from "./document-form";

/** What @fastify/multipart gets for the rider form (document-form.ts). */
export const RIDER_FORM_LIMITS = documentFormLimits(DOCUMENTS_PER_REQUEST);

export type RiderForm = DocumentForm;

/**
 * Reads the edit-rider-details form: text fields as strings, each `documents` file read and
 * checked (size, content type by magic bytes, count) by the shared document form reader.
 */
export function readRiderForm(request: FastifyRequest): Promise<RiderForm> {
  return readDocumentForm(request, {
    fileFields: [DOCUMENTS_FIELD],
    maxFiles: DOCUMENTS_PER_REQUEST,
    what: "the rider details",
  });
}
