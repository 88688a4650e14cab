import { getDefaultSortOrder, useTable } from "@refinedev/antd";
import type { HttpError } from "@refinedev/core";
import { Space, Table, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ListTable } from "../../app/components/list-table";
import { PageHeader } from "../../app/components/page-header";
import { Panel } from "../../app/components/panel";
import { formatDateTime } from "../../app/format";
import type { ChangeContactSubmissionDto } from "../../providers/api-types";
import { userShowPath } from "../users/paths";
import { DecisionButtons } from "./decision";
import {
  ContactFilters,
  filtersOf,
  INITIAL_FILTERS,
  isFiltered,
  searchOf,
  type ContactSearch,
  type ContactType,
  type SubmissionStatus,
} from "./filters";

type Row = ChangeContactSubmissionDto;

const STATUS_COLOURS: Record<SubmissionStatus, string> = {
  pending: "gold",
  approved: "green",
  rejected: "red",
};

export default function ChangeContactList() {
  const { t } = useTranslation("contact");
  const { tableProps, tableQuery, filters, sorters, searchFormProps } = useTable<
    Row,
    HttpError,
    ContactSearch
  >({
    resource: "change-contact-submissions",
    onSearch: filtersOf,
    pagination: { pageSize: 10 },
    filters: { initial: INITIAL_FILTERS },
    sorters: { initial: [{ field: "createdAt", order: "desc" }] },
    syncWithLocation: true,
    errorNotification: false,
    meta: { errorPrefix: t("list.title") },
  });

  const search = searchOf(filters);
  const sortOrder = (field: keyof Row) => getDefaultSortOrder(field, sorters);
  const refresh = () => void tableQuery.refetch();

  return (
    <>
      <PageHeader title={t("list.title")} />
      <Panel>
        <ContactFilters formProps={searchFormProps} initialValues={search} />
        <ListTable<Row>
          namespace="contact"
          query={tableQuery}
          tableProps={tableProps}
          filtered={isFiltered(search)}
        >
          <Table.Column<Row>
            dataIndex="userName"
            title={t("fields.user")}
            sorter
            defaultSortOrder={sortOrder("userName")}
            render={(name: string, row) => (
              <Space direction="vertical" size={0}>
                <Link to={userShowPath(row.userId)}>{name}</Link>
                <Typography.Text type="secondary">{row.accountNumber}</Typography.Text>
              </Space>
            )}
          />
          <Table.Column<Row>
            dataIndex="contactType"
            title={t("fields.contactType")}
            width={110}
            sorter
            defaultSortOrder={sortOrder("contactType")}
            render={(type: ContactType) => t(`contactType.${type}`)}
          />
          <Table.Column<Row>
            dataIndex="oldValue"
            title={t("fields.oldValue")}
            width={220}
            render={(value: string | null) =>
              value ?? <Typography.Text type="secondary">{t("none")}</Typography.Text>
            }
          />
          <Table.Column<Row>
            dataIndex="newValue"
            title={t("fields.newValue")}
            width={220}
            render={(value: string) => <Typography.Text strong>{value}</Typography.Text>}
          />
          <Table.Column<Row>
            dataIndex="createdAt"
            title={t("fields.createdAt")}
            width={160}
            sorter
            defaultSortOrder={sortOrder("createdAt")}
            render={(value: string) => formatDateTime(value)}
          />
          <Table.Column<Row>
            dataIndex="status"
            title={t("fields.status")}
            width={110}
            sorter
            defaultSortOrder={sortOrder("status")}
            render={(status: SubmissionStatus, row) => (
              <Space direction="vertical" size={0}>
                <Tag color={STATUS_COLOURS[status]}>{t(`status.${status}`)}</Tag>
                {row.remark && <Typography.Text type="secondary">{row.remark}</Typography.Text>}
              </Space>
            )}
          />
          <Table.Column<Row>
            key="actions"
            title={t("fields.actions")}
            width={200}
            render={(_, row) =>
              row.status === "pending" ? (
                <DecisionButtons submission={row} onDecided={refresh} />
              ) : null
            }
          />
        </ListTable>
      </Panel>
    </>
  );
}
