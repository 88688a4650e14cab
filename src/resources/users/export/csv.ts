import type { CrudFilter, CrudSort } from "@refinedev/core";

import {
  exportFileName as kitExportFileName,
  fetchAllRows,
  type ExportProgress,
} from "../../../app/kit/csv";
import { formatDateTime } from "../../../app/format";
import type { UserDto } from "../../../providers/api-types";
import type { CsvColumn } from "../../../app/kit/csv";

export {
  csvCell,
  downloadText,
  EXPORT_MAX_ROWS,
  EXPORT_PAGE_SIZE,
  toCsv,
  type CsvColumn,
  type ExportProgress,
} from "../../../app/kit/csv";

/** users-YYYY-MM-DD.csv, the local date. */
export const exportFileName = (now?: Date) => kitExportFileName("users", now);

/** Every user of the current filter and sort (see fetchAllRows). */
export async function fetchAllUsers(options: {
  filters: CrudFilter[];
  sorters: CrudSort[];
  max?: number;
  onProgress?: (progress: ExportProgress) => void;
  signal?: AbortSignal;
}) {
  const { rows, ...rest } = await fetchAllRows<UserDto>({
    resource: "users",
    meta: { collection: "users", listKey: "users" },
    ...options,
  });
  return { users: rows, ...rest };
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The exported columns, headed in the current language, values as the list shows them. */
export function userCsvColumns(t: Translate): CsvColumn<UserDto>[] {
  const text = (value: string | null) => value ?? "";
  const yesNo = (value: boolean) => t(value ? "export.yes" : "export.no");
  return [
    { header: t("fields.accountNumber"), value: (u) => u.accountNumber },
    { header: t("fields.name"), value: (u) => u.name },
    { header: t("fields.email"), value: (u) => text(u.email) },
    { header: t("fields.phone"), value: (u) => text(u.phone) },
    { header: t("fields.role"), value: (u) => t(`role.${u.role}`) },
    { header: t("fields.approvalStatus"), value: (u) => t(`approvalStatus.${u.approvalStatus}`) },
    { header: t("fields.isBanned"), value: (u) => yesNo(u.isBanned) },
    { header: t("fields.isVip"), value: (u) => yesNo(u.isVip) },
    { header: t("fields.url"), value: (u) => text(u.url) },
    { header: t("fields.lastActiveAt"), value: (u) => formatDateTime(u.lastActiveAt, "") },
    { header: t("fields.createdAt"), value: (u) => formatDateTime(u.createdAt) },
  ];
}
