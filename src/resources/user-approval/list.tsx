import { CheckOutlined, CloseOutlined } from "@ant-design/icons";
import { getDefaultFilter, useTable } from "@refinedev/antd";
import type { CrudFilter, HttpError } from "@refinedev/core";
import { Button, Flex, Form, Space, Table, Typography } from "antd";
import type { CheckboxProps } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FilterSelect } from "../../app/components/filter-select";
import { SearchBox } from "../../app/components/search-box";
import { ListTable } from "../../app/components/list-table";
import { PageHeader } from "../../app/components/page-header";
import { Panel } from "../../app/components/panel";
import type { UserDto, UserRole } from "../../providers/api-types";
import { userColumns } from "../users/columns";
import { USER_ROLES } from "../users/tags";
import { DecisionDialog } from "./decision-dialog";
import { isCodedFailure, type ApprovalAction, type DecisionOutcome } from "./decisions";

/** The page only ever lists pending users: sent with every request, whatever else is chosen. */
export const PENDING_FILTER: CrudFilter = {
  field: "approvalStatus",
  operator: "eq",
  value: "pending",
};

/** Refine's free-text field; the data provider sends it as the contract's `$search`. */
const SEARCH_FIELD = "q";

interface ApprovalSearch {
  q?: string;
  role?: UserRole;
}

const filtersOf = (values: ApprovalSearch): CrudFilter[] => [
  { field: SEARCH_FIELD, operator: "contains", value: values.q?.trim() || undefined },
  { field: "role", operator: "eq", value: values.role },
];

interface Decision {
  action: ApprovalAction;
  users: UserDto[];
}

export default function UserApprovalList() {
  const { t } = useTranslation("approval");
  const { tableProps, tableQuery, filters, sorters, searchFormProps } = useTable<
    UserDto,
    HttpError,
    ApprovalSearch
  >({
    resource: "user-approval",
    onSearch: filtersOf,
    pagination: { pageSize: 10 },
    sorters: { initial: [{ field: "createdAt", order: "desc" }] },
    filters: { permanent: [PENDING_FILTER] },
    // The error state below explains a failed load; the central handler toasts it once.
    errorNotification: false,
    meta: { errorPrefix: t("list.title") },
  });
  // Selected users by id, kept across pages (their rows are only at hand on their own page).
  const [selected, setSelected] = useState<ReadonlyMap<number, UserDto>>(new Map());
  const [decision, setDecision] = useState<Decision>();

  const search: ApprovalSearch = {
    q: getDefaultFilter(SEARCH_FIELD, filters, "contains") as string | undefined,
    role: getDefaultFilter("role", filters, "eq") as UserRole | undefined,
  };
  const filtered = Boolean(search.q || search.role);
  const submitSearch = () => searchFormProps.form?.submit();

  const forget = (outcome: DecisionOutcome) => {
    // Decided users leave the list; so do those someone else decided (a coded refusal).
    const gone = new Set([
      ...outcome.succeeded.map((user) => user.id),
      ...outcome.failures.filter((f) => isCodedFailure(f.error)).map((f) => f.user.id),
    ]);
    setSelected((current) => new Map([...current].filter(([id]) => !gone.has(id))));
  };

  const selectedUsers = [...selected.values()];
  const bulkButton = (action: ApprovalAction) => (
    <Button
      danger={action === "reject"}
      type={action === "approve" ? "primary" : "default"}
      icon={action === "approve" ? <CheckOutlined aria-hidden /> : <CloseOutlined aria-hidden />}
      disabled={selectedUsers.length === 0}
      onClick={() => setDecision({ action, users: selectedUsers })}
    >
      {t(action === "approve" ? "list.approveSelected" : "list.rejectSelected")}
    </Button>
  );

  return (
    <>
      <PageHeader title={t("list.title")} />
      <Panel>
        <Typography.Paragraph type="secondary">{t("list.description")}</Typography.Paragraph>
        <Form<ApprovalSearch>
          {...searchFormProps}
          layout="inline"
          role="search"
          initialValues={search}
          style={{ marginBottom: 16, rowGap: 12 }}
        >
          <SearchBox namespace="approval" onSearch={submitSearch} />
          <FilterSelect<UserRole>
            name="role"
            label={t("users:list.filters.role")}
            placeholder={t("users:list.filters.allRoles")}
            values={USER_ROLES}
            labelOf={(value) => t(`users:role.${value}`)}
            onChange={submitSearch}
            width={150}
          />
        </Form>
        <Flex gap={8} align="center" wrap style={{ marginBottom: 12 }}>
          <Typography.Text type="secondary" aria-live="polite">
            {t("list.selected", { count: selectedUsers.length })}
          </Typography.Text>
          {bulkButton("approve")}
          {bulkButton("reject")}
        </Flex>
        <ListTable<UserDto>
          namespace="approval"
          query={tableQuery}
          tableProps={{
            ...tableProps,
            rowSelection: {
              selectedRowKeys: [...selected.keys()],
              preserveSelectedRowKeys: true,
              // antd copies column titles into an aria-hidden measuring row, where a select-all
              // checkbox would be a focusable control hidden from assistive technology.
              hideSelectAll: true,
              onChange: (keys, rows) =>
                setSelected((current) => {
                  const next = new Map<number, UserDto>();
                  for (const key of keys) {
                    const id = Number(key);
                    const user = rows.find((row) => row?.id === id) ?? current.get(id);
                    if (user) next.set(id, user);
                  }
                  return next;
                }),
              // antd hands these to the checkbox's <input>; its types leave aria-* out.
              getCheckboxProps: (user) =>
                ({ "aria-label": t("list.selectRow", { name: user.name }) }) as CheckboxProps,
            },
          }}
          filtered={filtered}
        >
          {userColumns(t, {
            columns: ["accountNumber", "name", "email", "phone", "role", "submittedAt"],
            name: "link",
            sorters,
          })}
          <Table.Column<UserDto>
            key="actions"
            title={t("list.actions")}
            width={190}
            fixed="right"
            render={(_, user) => (
              <Space size={6}>
                <Button
                  size="small"
                  type="primary"
                  icon={<CheckOutlined aria-hidden />}
                  aria-label={t("action.approveNamed", { name: user.name })}
                  onClick={() => setDecision({ action: "approve", users: [user] })}
                >
                  {t("action.approve")}
                </Button>
                <Button
                  size="small"
                  danger
                  icon={<CloseOutlined aria-hidden />}
                  aria-label={t("action.rejectNamed", { name: user.name })}
                  onClick={() => setDecision({ action: "reject", users: [user] })}
                >
                  {t("action.reject")}
                </Button>
              </Space>
            )}
          />
        </ListTable>
      </Panel>
      {decision && (
        <DecisionDialog
          action={decision.action}
          users={decision.users}
          onDecided={forget}
          onClose={() => setDecision(undefined)}
        />
      )}
    </>
  );
}
