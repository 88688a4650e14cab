/**
 * Uploaded documents, whoever they belong to (a rider, a business): the file types allowed, the
 * size limit, and the kinds of document a business's application carries. The server checks a
 * file's content, never its name or declared type alone.
 */

/** The file types a document may be; `extensions` are the names a file of that type may have. */
export const DOCUMENT_TYPES = [
  { kind: "pdf", label: "PDF", contentType: "application/pdf", extensions: [".pdf"] },
  { kind: "jpeg", label: "JPEG", contentType: "image/jpeg", extensions: [".jpg", ".jpeg"] },
  { kind: "png", label: "PNG", contentType: "image/png", extensions: [".png"] },
] as const;
export type DocumentKind = (typeof DOCUMENT_TYPES)[number]["kind"];
export type DocumentContentType = (typeof DOCUMENT_TYPES)[number]["contentType"];
export const DOCUMENT_CONTENT_TYPES = DOCUMENT_TYPES.map((type) => type.contentType);

/** 5 MB: the most one document may hold. */
export const DOCUMENT_MAX_BYTES = 5 * 1024 * 1024;

/** What an input of type file accepts (a hint; the server decides by content). */
export const DOCUMENT_ACCEPT = DOCUMENT_TYPES.flatMap((type) => [
  type.contentType,
  ...type.extensions,
]).join(",");

/**
 * The documents a business's application carries: its registration certificate and a letter
 * from its bank confirming the settlement account. Both are asked for before approval; the
 * business page names the ones missing.
 */
export const BUSINESS_DOCUMENT_KINDS = ["registration_certificate", "bank_letter"] as const;
export type BusinessDocumentKind = (typeof BUSINESS_DOCUMENT_KINDS)[number];

/** The multipart field that carries each kind of business document (one file each). */
export const BUSINESS_DOCUMENT_FIELDS = {
  registration_certificate: "registrationCertificate",
  bank_letter: "bankLetter",
} as const satisfies Record<BusinessDocumentKind, string>;
