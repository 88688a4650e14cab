import { uploadErrors } from "../../../app/components/upload-errors";

/** The rider calls' failures, the codes they answer with explained in the `riders` namespace. */
export const { text: riderErrorText, notification: riderErrorNotification } = uploadErrors(
  "riders",
  [
    "DOCUMENT_TOO_LARGE",
    "INVALID_DOCUMENT",
    "INVALID_DOCUMENT_TYPE",
    "TOO_MANY_DOCUMENTS",
    "UNSUPPORTED_MEDIA_TYPE",
  ],
);
