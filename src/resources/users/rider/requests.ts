/**
 * The rider calls of the user detail page as plain request descriptions, shared by the section's
 * Refine hooks and the contract tests, so both send exactly the same thing.
 */
import dayjs, { type Dayjs } from "dayjs";

import {
  ATTENDANCE_MAX_RANGE_DAYS,
  DOCUMENT_MAX_BYTES,
  DOCUMENT_TYPES,
  DOCUMENTS_FIELD,
  DOCUMENTS_PER_REQUEST,
  type VehicleType,
} from "../../../shared/riders";
import { DAY_FORMAT } from "../../../app/format";

export const RIDER_DETAILS_URL = "/user-mgmt/get-rider-details";
export const RIDER_EDIT_URL = "/user-mgmt/edit-rider-details";
export const RIDER_ATTENDANCE_URL = "/user-mgmt/rider-attendance";

export const riderDetailsQuery = (accountNumber: string) => ({
  account_number: accountNumber,
  user_type: "rider" as const,
});

export interface RiderEditValues {
  vehicle_type: VehicleType;
  plate: string;
  licence_number: string;
}

/** The multipart form of edit-rider-details: the text fields, then each file under `documents`. */
export function riderEditForm(
  accountNumber: string,
  values: RiderEditValues,
  files: readonly File[],
): FormData {
  const form = new FormData();
  form.append("account_number", accountNumber);
  form.append("vehicle_type", values.vehicle_type);
  form.append("plate", values.plate.trim());
  form.append("licence_number", values.licence_number.trim());
  for (const file of files) form.append(DOCUMENTS_FIELD, file, file.name);
  return form;
}

export const riderAttendanceQuery = (accountNumber: string, start: Dayjs, end: Dayjs) => ({
  account_number: accountNumber,
  start_date: start.format(DAY_FORMAT),
  end_date: end.format(DAY_FORMAT),
});

/** The last 30 days, today included. */
export const defaultAttendanceRange = (today: Dayjs = dayjs()): [Dayjs, Dayjs] => [
  today.subtract(29, "day").startOf("day"),
  today.startOf("day"),
];

export type RangeProblem = "required" | "endBeforeStart" | "tooLong";

/** Why a range cannot be asked for, or undefined when it can (both ends included). */
export function attendanceRangeProblem(
  range: readonly [Dayjs | null | undefined, Dayjs | null | undefined] | null | undefined,
): RangeProblem | undefined {
  const [start, end] = range ?? [];
  if (!start || !end) return "required";
  const from = start.startOf("day");
  const to = end.startOf("day");
  if (to.isBefore(from)) return "endBeforeStart";
  if (to.diff(from, "day") + 1 > ATTENDANCE_MAX_RANGE_DAYS) return "tooLong";
  return undefined;
}

export type FileProblem = "type" | "size" | "empty" | "count";

/** Why a file cannot be uploaded (type by name or declared type, size, count), or undefined. */
export function documentProblem(file: File, alreadyChosen: number): FileProblem | undefined {
  const name = file.name.toLowerCase();
  const known = DOCUMENT_TYPES.some(
    (type) =>
      type.contentType === file.type ||
      (file.type === "" && type.extensions.some((extension) => name.endsWith(extension))),
  );
  if (!known) return "type";
  if (file.size > DOCUMENT_MAX_BYTES) return "size";
  if (file.size === 0) return "empty";
  if (alreadyChosen >= DOCUMENTS_PER_REQUEST) return "count";
  return undefined;
}
