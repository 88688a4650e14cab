import { getDefaultFilter, getDefaultSortOrder, useTable } from "@refinedev/antd";
import type { CrudFilter, HttpError } from "@refinedev/core";
import { Form, Table } from "antd";
import dayjs from "dayjs";
import { useTranslation } from "react-i18next";
import { SearchBox } from "../../app/components/search-box";
import { Link } from "react-router";
import { ListTable } from "../../app/components/list-table";
import { PageHeader } from "../../app/components/page-header";
import { Panel } from "../../app/components/panel";
import { formatDate } from "../../app/format";
import type { UserDto, UserRole } from "../../providers/api-types";
import { userShowPath } from "../users/paths";
import { RoleTag } from "../users/tags";

interface DormantSearch {
  q?: string;
}

const filtersOf = (values: DormantSearch): CrudFilter[] => [
  { field: "q", operator: "contains", value: values.q?.trim() || undefined },
];

/** Whole days since the user was last active (or, never active, since sign-up). */
export function daysInactive(user: Pick<UserDto, "lastActiveAt" | "createdAt">, now = dayjs()) {
  return now.diff(dayjs(user.lastActiveAt ?? user.createdAt), "day");
}

export default function DormantList() {
  const { t } = useTranslation("dormant");
  const { tableProps, tableQuery, filters, sorters, searchFormProps } = useTable<
    UserDto,
    HttpError,
    DormantSearch
  >({
    resource: "dormant-accounts",
    onSearch: filtersOf,
    pagination: { pageSize: 10 },
    sorters: { initial: [{ field: "lastActiveAt", order: "asc" }] },
    syncWithLocation: true,
    errorNotification: false,
    meta: { errorPrefix: t("list.title") },
  });
  const q = getDefaultFilter("q", filters, "contains") as string | undefined;
  const sortOrder = (field: keyof UserDto) => getDefaultSortOrder(field, sorters);

  return (
    <>
      <PageHeader title={t("list.title")} />
      <Panel>
        <Form<DormantSearch>
          {...searchFormProps}
          layout="inline"
          role="search"
          initialValues={{ q }}
          style={{ marginBottom: 16 }}
        >
          <SearchBox namespace="dormant" onSearch={() => searchFormProps.form?.submit()} />
        </Form>
        <ListTable<UserDto>
          namespace="dormant"
          query={tableQuery}
          tableProps={tableProps}
          filtered={Boolean(q)}
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
          />
          <Table.Column<UserDto>
            dataIndex="email"
            title={t("fields.email")}
            width={230}
            ellipsis
            render={(email: string | null) => email ?? t("none")}
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
            dataIndex="lastActiveAt"
            title={t("fields.lastActiveAt")}
            width={130}
            sorter
            defaultSortOrder={sortOrder("lastActiveAt")}
            render={(value: string | null) => (value ? formatDate(value) : t("never"))}
          />
          <Table.Column<UserDto>
            key="daysInactive"
            title={t("fields.daysInactive")}
            width={120}
            align="right"
            render={(_, user) => daysInactive(user)}
          />
          <Table.Column<UserDto>
            key="wallet"
            title={t("fields.wallet")}
            width={130}
            render={(_, user) => (
              <Link to={userShowPath(user.id)} aria-label={t("openWalletFor", { name: user.name })}>
                {t("openWallet")}
              </Link>
            )}
          />
        </ListTable>
      </Panel>
    </>
  );
}
