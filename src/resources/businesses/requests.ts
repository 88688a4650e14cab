/**
 * The business documents' calls as plain request descriptions, shared by the page's hooks and
 * the contract tests, so both send exactly the same thing.
 */
import {
  BUSINESS_DOCUMENT_FIELDS,
  DOCUMENT_MAX_BYTES,
  DOCUMENT_TYPES,
  type BusinessDocumentKind,
} from "../../shared/documents";

export const businessDocumentsUrl = (businessId: number) =>
  `/api/businesses/${businessId}/documents`;

/** The multipart form adding one document of `kind`, in the field the server reads it from. */
export function businessDocumentForm(kind: BusinessDocumentKind, file: File): FormData {
  const form = new FormData();
  form.append(BUSINESS_DOCUMENT_FIELDS[kind], file, file.name);
  return form;
}

export type BusinessFileProblem = "type" | "size" | "empty";

/**
 * Why a file cannot be sent (its name is not .pdf/.jpg/.jpeg/.png, over 5 MB, empty), or
 * undefined: the server decides by content, this saves a round trip for the obvious cases.
 */
export function businessFileProblem(file: File): BusinessFileProblem | undefined {
  const name = file.name.toLowerCase();
  const known = DOCUMENT_TYPES.some((type) =>
    (type.extensions as readonly string[]).some((extension) => name.endsWith(extension)),
  );
  if (!known) return "type";
  if (file.size > DOCUMENT_MAX_BYTES) return "size";
  if (file.size === 0) return "empty";
  return undefined;
}
