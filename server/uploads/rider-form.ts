import { basename } from "node:path";

import type { MultipartFile } from "@fastify/multipart";
import type { FastifyRequest } from "fastify";

import {
  DOCUMENT_MAX_BYTES,
  DOCUMENT_TYPES,
  DOCUMENTS_FIELD,
  DOCUMENTS_PER_REQUEST,
} from "../../src/shared/riders";
import { BIDI_CONTROL_PROBLEM, hasBidiControl } from "../../src/shared/text";
import { HttpError } from "../errors";
import { newDocumentId, sniffDocumentKind, type StagedDocument } from "./storage";

/** At most this many text fields and this long each: the form has four short ones. */
const MAX_FIELDS = 10;
const MAX_FIELD_BYTES = 1024;

/**
 * What @fastify/multipart gets: one file over the count is read only to refuse it, and an
 * oversized file is cut at the limit and flagged (`truncated`) rather than thrown, so the handler
 * can name it and clean up.
 */
export const RIDER_FORM_LIMITS = {
  fileSize: DOCUMENT_MAX_BYTES,
  files: DOCUMENTS_PER_REQUEST + 1,
  fields: MAX_FIELDS,
  fieldSize: MAX_FIELD_BYTES,
  parts: MAX_FIELDS + DOCUMENTS_PER_REQUEST + 1,
};

const ALLOWED = DOCUMENT_TYPES.map((type) => type.label).join(", ");
const MAX_MB = DOCUMENT_MAX_BYTES / 1024 / 1024;

const invalid = (message: string, code = "VALIDATION_ERROR", status = 400) =>
  new HttpError(status, message, code);

/** A display name: no directory part (some browsers send one), no control characters. */
function displayName(filename: string | undefined): string {
  const clean = basename((filename ?? "").replace(/\\/g, "/")).replace(/\p{Cc}/gu, "");
  return clean.trim().slice(0, 255) || "document";
}

/**
 * Reads one file part into memory (at most DOCUMENT_MAX_BYTES: the parser cuts it there): the
 * document goes into the database as one value, in the same transaction as the rider's row.
 */
async function stage(part: MultipartFile) {
  const chunks: Buffer[] = [];
  for await (const chunk of part.file) chunks.push(chunk as Buffer);
  return { content: Buffer.concat(chunks), truncated: part.file.truncated };
}

/** Checks a read file: size, then the declared type and the type its content shows. */
function checked(
  part: MultipartFile,
  { content, truncated }: Awaited<ReturnType<typeof stage>>,
): StagedDocument {
  const name = displayName(part.filename);
  // Refused as in a title; not echoed, or the message would show the spoof.
  if (hasBidiControl(name)) {
    throw invalid(`Invalid ${DOCUMENTS_FIELD}: File name ${BIDI_CONTROL_PROBLEM}`);
  }
  if (truncated) {
    throw invalid(`Document "${name}" is larger than ${MAX_MB} MB`, "DOCUMENT_TOO_LARGE", 413);
  }
  const size = content.length;
  if (size === 0) throw invalid(`Document "${name}" is empty`, "INVALID_DOCUMENT");
  const declared = DOCUMENT_TYPES.some((type) => type.contentType === part.mimetype);
  const kind = sniffDocumentKind(content);
  const type = DOCUMENT_TYPES.find((candidate) => candidate.kind === kind);
  if (!declared || !type) {
    const reason = declared ? "its content is not" : `it is declared as ${part.mimetype}, not`;
    throw invalid(
      `Document "${name}" is not an allowed type (${reason} ${ALLOWED})`,
      "INVALID_DOCUMENT_TYPE",
    );
  }
  return {
    id: newDocumentId(),
    name,
    kind: type.kind,
    contentType: type.contentType,
    size,
    content,
  };
}

/** The plugin's own errors for limits and malformed forms, in words a user can act on. */
function translate(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  switch (code) {
    case "FST_FILES_LIMIT":
      return invalid(
        `Too many documents: at most ${DOCUMENTS_PER_REQUEST} per request`,
        "TOO_MANY_DOCUMENTS",
      );
    case "FST_PARTS_LIMIT":
    case "FST_FIELDS_LIMIT":
      return invalid("Too many form fields");
    case "FST_INVALID_MULTIPART_CONTENT_TYPE":
      return invalid(
        "Send the rider details as multipart/form-data",
        "UNSUPPORTED_MEDIA_TYPE",
        415,
      );
    case "FST_PROTO_VIOLATION":
      return invalid("A form field has a forbidden name");
    default:
      // The multipart parser's own complaints (a body cut short, a missing boundary, a broken
      // part header) carry neither an errno code nor a status: the client sent a broken form.
      if (error instanceof Error && code === undefined && !("statusCode" in error)) {
        return invalid(`The multipart form is malformed or incomplete (${error.message})`);
      }
      return error;
  }
}

export interface RiderForm {
  fields: Record<string, string>;
  documents: StagedDocument[];
}

/**
 * Reads the multipart form: text fields as strings, each `documents` file read and checked (size,
 * content type by magic bytes, count). The first problem is thrown as an HttpError; nothing is
 * stored before the whole form is good. The rest of the request is still read, so the client gets
 * the answer instead of a reset connection.
 */
export async function readRiderForm(request: FastifyRequest): Promise<RiderForm> {
  const fields: Record<string, string> = {};
  const documents: StagedDocument[] = [];
  let problem: unknown;
  const refuse = (error: unknown) => {
    problem ??= error;
  };

  try {
    for await (const part of request.parts()) {
      if (part.type === "field") {
        if (part.fieldname in fields) refuse(invalid(`Invalid ${part.fieldname}: Given twice`));
        else if (part.valueTruncated) refuse(invalid(`Invalid ${part.fieldname}: Too long`));
        else fields[part.fieldname] = String(part.value);
        continue;
      }
      if (problem !== undefined || part.fieldname !== DOCUMENTS_FIELD) {
        if (part.fieldname !== DOCUMENTS_FIELD) {
          refuse(
            invalid(`Invalid ${part.fieldname}: Unknown field (files go in ${DOCUMENTS_FIELD})`),
          );
        }
        part.file.resume();
        continue;
      }
      if (documents.length >= DOCUMENTS_PER_REQUEST) {
        refuse(translate({ code: "FST_FILES_LIMIT" }));
        part.file.resume();
        continue;
      }
      try {
        documents.push(checked(part, await stage(part)));
      } catch (error) {
        refuse(error);
      }
    }
  } catch (error) {
    refuse(translate(error));
  }

  if (problem !== undefined) throw problem;
  return { fields, documents };
}
