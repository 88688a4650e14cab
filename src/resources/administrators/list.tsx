import { EditOutlined, PlusOutlined } from "@ant-design/icons";
import { getDefaultFilter, getDefaultSortOrder, useTable } from "@refinedev/antd";
import { useGetIdentity, type HttpError } from "@refinedev/core";
import { Button, Form, Select, Space, Table } from "antd";
import { useTranslation } from "react-i18next";
import { SearchBox } from "../../app/components/search-box";
import { Link, useNavigate } from "react-router";
import { ListTable } from "../../app/components/list-table";
import { PageHeader } from "../../app/components/page-header";
import { Panel } from "../../app/components/panel";
import { formatDate } from "../../app/format";
import type { AdminDto, AdminStatus } from "../../providers/api-types";
import { ADMIN_PATHS, adminEditPath, adminShowPath } from "./paths";
import { ADMIN_STATUSES, AdminStatusTag, SuperAdminTag } from "./status-tag";
import { StatusToggle } from "./status-toggle";

/** Refine's free-text field; the data provider sends it as the contract's `$search`. */
const SEARCH_FIELD = "q";

interface AdminSearch {
  q?: string;
  status?: AdminStatus;
}

export default function AdministratorList() {
  const { t } = useTranslation("admin");
  const navigate = useNavigate();
  const { data: me } = useGetIdentity<AdminDto>();
  const { tableProps, tableQuery, filters, sorters, searchFormProps } = useTable<
    AdminDto,
    HttpError,
    AdminSearch
  >({
    resource: "administrators",
    onSearch: ({ q, status }) => [
      { field: SEARCH_FIELD, operator: "contains", value: q?.trim() || undefined },
      { field: "status", operator: "eq", value: status },
    ],
    pagination: { pageSize: 10 },
    sorters: { initial: [{ field: "createdAt", order: "desc" }] },
    // Page, sort and filters live in the URL: reloads, links and the back button keep them.
    syncWithLocation: true,
    // The error state below explains a failed load; the central handler toasts it once,
    // naming this list.
    errorNotification: false,
    meta: { errorPrefix: t("list.title") },
  });

  const search = getDefaultFilter(SEARCH_FIELD, filters, "contains") as string | undefined;
  const status = getDefaultFilter("status", filters, "eq") as AdminStatus | undefined;
  const filtered = Boolean(search || status);

  return (
    <>
      <PageHeader
        title={t("list.title")}
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined aria-hidden />}
            onClick={() => navigate(ADMIN_PATHS.create)}
          >
            {t("list.create")}
          </Button>
        }
      />
      <Panel>
        <Form<AdminSearch>
          {...searchFormProps}
          layout="inline"
          role="search"
          initialValues={{ q: search, status }}
          style={{ marginBottom: 16, rowGap: 12 }}
        >
          <SearchBox namespace="admin" onSearch={() => searchFormProps.form?.submit()} />
          <Form.Item name="status" noStyle>
            <Select<AdminStatus>
              allowClear
              placeholder={t("list.allStatuses")}
              aria-label={t("list.statusFilter")}
              onChange={() => searchFormProps.form?.submit()}
              options={ADMIN_STATUSES.map((value) => ({ value, label: t(`status.${value}`) }))}
              style={{ minWidth: 180 }}
            />
          </Form.Item>
        </Form>
        <ListTable<AdminDto>
          namespace="admin"
          query={tableQuery}
          tableProps={tableProps}
          filtered={filtered}
        >
          <Table.Column<AdminDto>
            dataIndex="name"
            title={t("fields.name")}
            sorter
            defaultSortOrder={getDefaultSortOrder("name", sorters)}
            render={(name: string, admin) => (
              <Space size={6} wrap>
                <Link to={adminShowPath(admin.id)}>{name}</Link>
                {admin.isSuperAdmin && <SuperAdminTag />}
                {admin.id === me?.id && <span>({t("list.you")})</span>}
              </Space>
            )}
          />
          <Table.Column<AdminDto>
            dataIndex="email"
            title={t("fields.email")}
            width={240}
            sorter
            defaultSortOrder={getDefaultSortOrder("email", sorters)}
          />
          <Table.Column<AdminDto>
            dataIndex="status"
            title={t("fields.status")}
            width={110}
            sorter
            defaultSortOrder={getDefaultSortOrder("status", sorters)}
            render={(value: AdminStatus) => <AdminStatusTag status={value} />}
          />
          <Table.Column<AdminDto>
            dataIndex="createdAt"
            title={t("fields.createdAt")}
            width={130}
            sorter
            defaultSortOrder={getDefaultSortOrder("createdAt", sorters)}
            render={(value: string) => formatDate(value)}
          />
          <Table.Column<AdminDto>
            dataIndex="lastLoginAt"
            title={t("fields.lastLoginAt")}
            width={130}
            sorter
            defaultSortOrder={getDefaultSortOrder("lastLoginAt", sorters)}
            render={(value: string | null) => formatDate(value, t("never"))}
          />
          <Table.Column<AdminDto>
            key="actions"
            title={t("list.actions")}
            fixed="right"
            width={180}
            render={(_, admin) => (
              <Space size={4}>
                <Button
                  size="small"
                  icon={<EditOutlined aria-hidden />}
                  aria-label={t("list.editNamed", { name: admin.name })}
                  onClick={() => navigate(adminEditPath(admin.id))}
                >
                  {t("list.edit")}
                </Button>
                {admin.id !== me?.id && <StatusToggle admin={admin} size="small" />}
              </Space>
            )}
          />
        </ListTable>
      </Panel>
    </>
  );
}
