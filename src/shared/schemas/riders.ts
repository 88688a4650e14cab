import { z } from "zod";

import { safeText } from "../text";

import {
  ATTENDANCE_MAX_RANGE_DAYS,
  DOCUMENTS_FIELD,
  DOCUMENTS_PER_REQUEST,
  LICENCE_NUMBER_MAX_LENGTH,
  LICENCE_NUMBER_PATTERN,
  PLATE_MAX_LENGTH,
  PLATE_PATTERN,
  VEHICLE_TYPES,
} from "../riders";
import { accountNumberSchema, isoDate, isoDateTime } from "./common";
import { crossFieldRule } from "./rules";
import { riderFactsSchema, userDtoSchema } from "./users";

export const riderDetailsQuerySchema = z.strictObject({
  account_number: accountNumberSchema,
  user_type: z.enum(["rider"]).describe("Always `rider`"),
});

export const riderDocumentSchema = z
  .object({
    id: z.string().describe("Identifies the document within its rider"),
    name: z.string().describe("The file name as uploaded, for display only"),
    contentType: z.string().describe("Detected from the file's content"),
    size: z.number().int().describe("Bytes"),
    uploadedAt: isoDateTime,
    downloadPath: z.string().describe("GET this path (relative to the API base) for the file"),
  })
  .meta({ id: "RiderDocument" });
export type RiderDocumentDto = z.output<typeof riderDocumentSchema>;

export const riderDetailsSchema = z
  .object({
    user: userDtoSchema,
    rider: riderFactsSchema.extend({ documents: z.array(riderDocumentSchema) }),
  })
  .meta({ id: "RiderDetails" });
export type RiderDetails = z.output<typeof riderDetailsSchema>;

/** A calendar date that exists (2026-02-30 does not), in the API's years. */
export const calendarDate = isoDate;

/** A day's number since 1970, or undefined when the text is not a valid day (already refused). */
const dayNumberOf = (day: string) => {
  const time = /^\d{4}-\d{2}-\d{2}$/.test(day) ? Date.parse(`${day}T00:00:00Z`) : Number.NaN;
  return Number.isFinite(time) ? Math.round(time / 86_400_000) : undefined;
};

/** Two days, both included: the end not before the start, at most 366 days in all. */
export const riderAttendanceQuerySchema = crossFieldRule(
  z.strictObject({
    account_number: accountNumberSchema,
    start_date: calendarDate,
    end_date: calendarDate,
  }),
  {
    fields: ["end_date", "start_date"],
    rule: `start_date ≤ end_date, at most ${ATTENDANCE_MAX_RANGE_DAYS} days in all (both included)`,
  },
  (query, context) => {
    const start = dayNumberOf(query.start_date);
    const end = dayNumberOf(query.end_date);
    if (start === undefined || end === undefined) return;
    if (end < start) {
      context.addIssue({ code: "custom", path: ["end_date"], message: "Before start_date" });
    } else if (end - start + 1 > ATTENDANCE_MAX_RANGE_DAYS) {
      context.addIssue({
        code: "custom",
        path: ["end_date"],
        message: `The range spans more than ${ATTENDANCE_MAX_RANGE_DAYS} days`,
      });
    }
  },
);

export const attendanceDaySchema = z
  .object({
    date: z.string().describe("YYYY-MM-DD"),
    clockIn: isoDateTime,
    clockOut: isoDateTime.nullable().describe("Null while the rider is still clocked in"),
    workedMinutes: z.number().int().nullable().describe("Null while still clocked in"),
  })
  .meta({ id: "RiderAttendanceDay" });

export const riderAttendanceSchema = z
  .object({
    accountNumber: z.string(),
    startDate: z.string(),
    endDate: z.string(),
    days: z.array(attendanceDaySchema).describe("By date, then clock-in"),
    totalWorkedMinutes: z.number().int(),
  })
  .meta({ id: "RiderAttendance" });
export type RiderAttendance = z.output<typeof riderAttendanceSchema>;

/** The text fields of the edit-rider-details form; each optional one is left alone when absent. */
export const editRiderFieldsSchema = z.strictObject({
  account_number: accountNumberSchema,
  vehicle_type: z.enum(VEHICLE_TYPES).optional(),
  plate: safeText()
    .trim()
    .min(1, "Required")
    .max(PLATE_MAX_LENGTH)
    .regex(PLATE_PATTERN, "Letters, digits, spaces and hyphens only")
    .optional(),
  licence_number: safeText()
    .trim()
    .min(1, "Required")
    .max(LICENCE_NUMBER_MAX_LENGTH)
    .regex(LICENCE_NUMBER_PATTERN, "Letters, digits and hyphens only")
    .optional(),
});
export type EditRiderFields = z.output<typeof editRiderFieldsSchema>;

/** The whole multipart form, for the OpenAPI document (the handler reads it as a stream). */
export const editRiderFormSchema = editRiderFieldsSchema
  .extend({
    [DOCUMENTS_FIELD]: z
      .array(z.string().meta({ format: "binary" }))
      .max(DOCUMENTS_PER_REQUEST)
      .optional()
      .describe("PDF, JPEG or PNG files, 5 MB each at most, 5 per request at most"),
  })
  .meta({ id: "EditRiderDetailsForm" });

export const riderDocumentQuerySchema = z.strictObject({
  account_number: accountNumberSchema,
  document_id: z.string().regex(/^[0-9a-f]{32}$/, "Not a document id"),
});
