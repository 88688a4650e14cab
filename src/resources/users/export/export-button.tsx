import type { CrudFilter, CrudSort } from "@refinedev/core";
import { formatDateTime } from "../../../app/format";
import { ExportButton } from "../../../app/kit/export-button";
import type { UserDto } from "../../../providers/api-types";
import type { CsvColumn } from "./csv";

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

/** Exports the filtered, sorted user list as CSV, with progress and a row cap. */
export function ExportUsersButton({
  filters,
  sorters,
}: {
  filters: CrudFilter[];
  sorters: CrudSort[];
}) {
  return (
    <ExportButton<UserDto>
      namespace="users"
      resource="users"
      meta={{ collection: "users", listKey: "users" }}
      filters={filters}
      sorters={sorters}
      columns={userCsvColumns}
      filePrefix="users"
    />
  );
}
