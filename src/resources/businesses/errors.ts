import { uploadErrors } from "../../app/components/upload-errors";

/** The document calls' failures, the codes they answer with explained in the `business` namespace. */
export const { text: documentErrorText, notification: documentErrorNotification } = uploadErrors(
  "business",
  [
    "DOCUMENT_TOO_LARGE",
    "DOCUMENT_TYPE_MISMATCH",
    "DOCUMENT_REQUIRED",
    "INVALID_DOCUMENT",
    "INVALID_DOCUMENT_TYPE",
    "TOO_MANY_DOCUMENTS",
    "TOO_MANY_FILES",
    "UNSUPPORTED_MEDIA_TYPE",
  ],
);
