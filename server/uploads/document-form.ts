import { basename, extname } from "node:path";

import type { MultipartFile } from "@fastify/multipart";
import type { FastifyRequest } from "fastify";

import { DOCUMENT_MAX_BYTES, DOCUMENT_TYPES } from "../../src/shared/documents";
import { BIDI_CONTROL_PROBLEM, hasBidiControl } from "../../src/shared/text";
import { HttpError } from "../errors";
import { newDocumentId, sniffDocumentKind, type StagedDocument } from "./storage";

/**
 * The one reader of a multipart form that carries documents (a rider's details, a business's
 * application and its documents): text fields as strings, each file read into memory up to the
 * size limit and checked by its content (magic bytes), the first problem thrown as an HttpError
 * once the whole form has been read (so the client gets the answer, not a reset connection), and
 * nothing stored before the whole form is good.
 */

/** At most this many text fields and this long each: the forms have a few short ones. */
const MAX_FIELDS = 10;
const MAX_FIELD_BYTES = 1024;

/**
 * What @fastify/multipart gets (register it with `throwFileSizeLimit: false`): one file over the
 * count is read only to refuse it, and an oversized file is cut at the limit and flagged
 * (`truncated`) rather than thrown, so the reader can name it.
 */
export const documentFormLimits = (maxFiles: number) => ({
  fileSize: DOCUMENT_MAX_BYTES,
  files: maxFiles + 1,
  fields: MAX_FIELDS,
  fieldSize: MAX_FIELD_BYTES,
  parts: MAX_FIELDS + maxFiles + 1,
});

export interface DocumentFormOptions {
  /** The fields a file may come in. */
  fileFields: readonly string[];
  /** At most this many files in all. */
  maxFiles: number;
  /** What the form sends, for the 415 answer: "the rider details". */
  what: string;
  /**
   * Whether a file's name must say what its content is (`.pdf` for a PDF, `.jpg`/`.jpeg` for a
   * JPEG, `.png` for a PNG): a PNG named `certificate.pdf` is refused, 400
   * DOCUMENT_TYPE_MISMATCH. Without it the content alone decides how the file is served.
   */
  nameMustMatch?: boolean;
}

/** A checked file and the field it came in. */
export interface FormDocument extends StagedDocument {
  field: string;
}

export interface DocumentForm {
  fields: Record<string, string>;
  documents: FormDocument[];
}

const ALLOWED = DOCUMENT_TYPES.map((type) => type.label).join(", ");
const EXTENSIONS = DOCUMENT_TYPES.flatMap((type) => type.extensions).join(", ");
const MAX_MB = DOCUMENT_MAX_BYTES / 1024 / 1024;

const invalid = (message: string, code = "VALIDATION_ERROR", status = 400) =>
  new HttpError(status, message, code);

/** A display name: no directory part (some browsers send one), no control characters. */
function displayName(filename: string | undefined): string {
  const clean = basename((filename ?? "").replace(/\\/g, "/")).replace(/\p{Cc}/gu, "");
  return clean.trim().slice(0, 255) || "document";
}

/** Reads one file part into memory (at most DOCUMENT_MAX_BYTES: the parser cuts it there). */
async function stage(part: MultipartFile) {
  const chunks: Buffer[] = [];
  for await (const chunk of part.file) chunks.push(chunk as Buffer);
  return { content: Buffer.concat(chunks), truncated: part.file.truncated };
}

/** Checks a read file: its name, size, then the declared type and the type its content shows. */
function checked(
  part: MultipartFile,
  { content, truncated }: Awaited<ReturnType<typeof stage>>,
  nameMustMatch: boolean,
): FormDocument {
  const name = displayName(part.filename);
  // Refused as in a title; not echoed, or the message would show the spoof.
  if (hasBidiControl(name)) {
    throw invalid(`Invalid ${part.fieldname}: File name ${BIDI_CONTROL_PROBLEM}`);
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
  if (nameMustMatch) {
    const extension = extname(name).toLowerCase();
    if (!(type.extensions as readonly string[]).includes(extension)) {
      throw new HttpError(
        400,
        `Document "${name}" is a ${type.label} file: its name must end in ${type.extensions.join(" or ")} (names end in one of ${EXTENSIONS})`,
        "DOCUMENT_TYPE_MISMATCH",
        { field: part.fieldname, detected: type.label },
      );
    }
  }
  return {
    id: newDocumentId(),
    field: part.fieldname,
    name,
    kind: type.kind,
    contentType: type.contentType,
    size,
    content,
  };
}

/** The plugin's own errors for limits and malformed forms, in words a user can act on. */
function translate(error: unknown, options: DocumentFormOptions): unknown {
  const code = (error as { code?: string }).code;
  switch (code) {
    case "FST_FILES_LIMIT":
      return invalid(
        `Too many documents: at most ${options.maxFiles} per request`,
        "TOO_MANY_DOCUMENTS",
      );
    case "FST_PARTS_LIMIT":
    case "FST_FIELDS_LIMIT":
      return invalid("Too many form fields");
    case "FST_INVALID_MULTIPART_CONTENT_TYPE":
      return invalid(`Send ${options.what} as multipart/form-data`, "UNSUPPORTED_MEDIA_TYPE", 415);
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

/** Reads and checks the whole form (see the top of this file). */
export async function readDocumentForm(
  request: FastifyRequest,
  options: DocumentFormOptions,
): Promise<DocumentForm> {
  const fields: Record<string, string> = {};
  const documents: FormDocument[] = [];
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
      const known = options.fileFields.includes(part.fieldname);
      if (problem !== undefined || !known) {
        if (!known) {
          refuse(
            invalid(
              `Invalid ${part.fieldname}: Unknown field (files go in ${options.fileFields.join(" or ")})`,
            ),
          );
        }
        part.file.resume();
        continue;
      }
      if (documents.length >= options.maxFiles) {
        refuse(translate({ code: "FST_FILES_LIMIT" }, options));
        part.file.resume();
        continue;
      }
      try {
        documents.push(checked(part, await stage(part), options.nameMustMatch ?? false));
      } catch (error) {
        refuse(error);
      }
    }
  } catch (error) {
    refuse(translate(error, options));
  }

  if (problem !== undefined) throw problem;
  return { fields, documents };
}
