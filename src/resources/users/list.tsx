import { getDefaultSortOrder, useTable } from "@refinedev/antd";
import type { HttpError } from "@refinedev/core";
import { Space, Table } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ListTable } from "../../app/components/list-table";
import { PageHeader } from "../../app/components/page-header";
import { Panel } from "../../app/components/panel";
import { formatDate } from "../../app/format";
import type { ApprovalStatus, UserDto, UserRole } from "../../providers/api-types";
import {
  BOOLEAN_FILTER_FIELDS,
  filtersOf,
  isFiltered,
  searchOf,
  UserFilters,
  type UserSearch,
} from "./list-filters";
import { userShowPath } from "./paths";
import { ExportUsersButton } from "./export/export-button";
import { ApprovalStatusTag, BannedTag, RoleTag, VipTag } from "./tags";
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
  const sortOrder = (field: keyof UserDto) => getDefaultSortOrder(field, sorters);

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
          <Table.Column<UserDto>
            dataIndex="accountNumber"
            title={t("fields.accountNumber")}
            width={125}
            sorter
            defaultSortOrder={sortOrder("accountNumber")}
          />
          <Table.Column<UserDto>
            dataIndex="name"
            title={t("fields.name")}
            sorter
            defaultSortOrder={sortOrder("name")}
            render={(name: string, user) => (
              <Space size={6} wrap>
                <Link to={userShowPath(user.id)}>{name}</Link>
                {user.isBanned && <BannedTag />}
                {user.isVip && <VipTag />}
              </Space>
            )}
          />
          <Table.Column<UserDto>
            dataIndex="email"
            title={t("fields.email")}
            width={230}
            ellipsis
            render={(email: string | null) => email ?? t("none")}
          />
          <Table.Column<UserDto>
            dataIndex="phone"
            title={t("fields.phone")}
            width={135}
            render={(phone: string | null) => phone ?? t("none")}
          />
          <Table.Column<UserDto>
            dataIndex="role"
            title={t("fields.role")}
            width={100}
            sorter
            defaultSortOrder={sortOrder("role")}
            render={(role: UserRole) => <RoleTag role={role} />}
          />
          <Table.Column<UserDto>
            dataIndex="approvalStatus"
            title={t("fields.approvalStatus")}
            width={125}
            sorter
            defaultSortOrder={sortOrder("approvalStatus")}
            render={(status: ApprovalStatus) => <ApprovalStatusTag status={status} />}
          />
          <Table.Column<UserDto>
            dataIndex="createdAt"
            title={t("fields.createdAt")}
            width={125}
            sorter
            defaultSortOrder={sortOrder("createdAt")}
            render={(value: string) => formatDate(value)}
          />
        </ListTable>
      </Panel>
    </>
  );
}
