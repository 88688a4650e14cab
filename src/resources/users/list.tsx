import { useTable } from "@refinedev/antd";
import type { HttpError } from "@refinedev/core";
import { useTranslation } from "react-i18next";
import { ListTable } from "../../app/components/list-table";
import { PageHeader } from "../../app/components/page-header";
import { Panel } from "../../app/components/panel";
import type { UserDto } from "../../providers/api-types";
import { userColumns } from "./columns";
import {
  BOOLEAN_FILTER_FIELDS,
  filtersOf,
  isFiltered,
  searchOf,
  UserFilters,
  type UserSearch,
} from "./list-filters";
import { ExportUsersButton } from "./export/export-button";
import { restoreBooleanFilters } from "./url-filters";

export default function UserList() {
  const { t } = useTranslation("users");
  const { tableProps, tableQuery, filters, setFilters, sorters, searchFormProps } = useTable<
    UserDto,
    HttpError,
    UserSearch
  >({
    resource: "users",
    onSearch: filtersOf,
    pagination: { pageSize: 10 },
    sorters: { initial: [{ field: "createdAt", order: "desc" }] },
    // Page, sort and filters live in the URL: reloads, links and the back button keep them.
    syncWithLocation: true,
    // The error state below explains a failed load; the central handler toasts it once,
    // naming this list.
    errorNotification: false,
    meta: { errorPrefix: t("list.title") },
  });

  // Set during render, so the list is first requested with booleans, never with "true".
  const restored = restoreBooleanFilters(filters, BOOLEAN_FILTER_FIELDS);
  if (restored) setFilters(restored, "replace");

  const search = searchOf(filters);

  return (
    <>
      <PageHeader
        title={t("list.title")}
        extra={<ExportUsersButton filters={filters} sorters={sorters} />}
      />
      <Panel>
        <UserFilters formProps={searchFormProps} initialValues={search} />
        <ListTable<UserDto>
          namespace="users"
          query={tableQuery}
          tableProps={tableProps}
          filtered={isFiltered(search)}
        >
          {userColumns(t, {
            columns: [
              "accountNumber",
              "name",
              "email",
              "phone",
              "role",
              "approvalStatus",
              "createdAt",
            ],
            name: "linkWithFlags",
            sorters,
          })}
        </ListTable>
      </Panel>
    </>
  );
}
