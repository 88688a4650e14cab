/**
 * Rules for riders' details, documents and attendance, shared by the server's validation and the
 * console's forms and upload widget.
 */

/** The vehicles a rider may register (the values the existing data holds). */
export const VEHICLE_TYPES = ["motorcycle", "car", "bicycle", "e-scooter"] as const;
export type VehicleType = (typeof VEHICLE_TYPES)[number];

/** Letters, digits, spaces and hyphens: `WA 1234`, `VBE-88`. */
export const PLATE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 -]*$/;
export const PLATE_MAX_LENGTH = 15;
/** Letters, digits and hyphens: `D12345678`. */
export const LICENCE_NUMBER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9-]*$/;
export const LICENCE_NUMBER_MAX_LENGTH = 30;

export const VERIFICATION_REMARKS_MAX_LENGTH = 500;

/** The document types a rider may upload (src/shared/documents.ts, shared with businesses). */
export { DOCUMENT_MAX_BYTES, DOCUMENT_TYPES, type DocumentKind } from "./documents";
export const DOCUMENTS_PER_REQUEST = 5;
/** The form field that carries the files of the edit-rider-details call. */
export const DOCUMENTS_FIELD = "documents";

/** The longest attendance range one request may ask for, in days, both ends included. */
export const ATTENDANCE_MAX_RANGE_DAYS = 366;
