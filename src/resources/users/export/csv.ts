import type { CrudFilter, CrudSort } from "@refinedev/core";

import {
  exportFileName as kitExportFileName,
  fetchAllRows,
  type ExportProgress,
} from "../../../app/kit/csv";
import type { UserDto } from "../../../providers/api-types";

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
