import { getDefaultFilter, useTable } from "@refinedev/antd";
import type { CrudFilter, HttpError } from "@refinedev/core";
import { Form, Table } from "antd";
import dayjs from "dayjs";
import { useTranslation } from "react-i18next";
import { SearchBox } from "../../app/components/search-box";
import { Link } from "react-router";
import { ListTable } from "../../app/components/list-table";
import { PageHeader } from "../../app/components/page-header";
import { Panel } from "../../app/components/panel";
import type { UserDto } from "../../providers/api-types";
import { userColumns } from "../users/columns";
import { userShowPath } from "../users/paths";

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
          {userColumns(t, {
            columns: ["accountNumber", "name", "email", "role", "lastActiveAt"],
            name: "text",
            ns: "dormant",
            sorters,
          })}
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
