import { getDefaultSortOrder } from "@refinedev/antd";
import type { CrudSort } from "@refinedev/core";
import { Space, Table, type TableColumnType } from "antd";
import type { TFunction } from "i18next";
import { Link } from "react-router";
import { formatDate, formatDateTime } from "../../app/format";
import type { ApprovalStatus, UserDto, UserRole } from "../../providers/api-types";
import { userShowPath } from "./paths";
import { ApprovalStatusTag, BannedTag, RoleTag, VipTag } from "./tags";

/** `submittedAt` is `createdAt` as the approval queue words it: with the time of day. */
export type UserColumn =
  | "accountNumber"
  | "name"
  | "email"
  | "phone"
  | "role"
  | "approvalStatus"
  | "createdAt"
  | "submittedAt"
  | "lastActiveAt";

interface UserColumnOptions {
  /** The columns, in the order the list shows them. */
  columns: readonly UserColumn[];
  /** The table's sorters, which mark the column the list is sorted by. */
  sorters: CrudSort[];
  /** The name as plain text, as a link to the user's detail, or as that link with ban/VIP tags. */
  name: "text" | "link" | "linkWithFlags";
  /** The namespace whose `fields.*`, `none` and `never` word the columns: Dormant has its own. */
  ns?: "users" | "dormant";
}

const nameLink = (name: string, user: UserDto) => <Link to={userShowPath(user.id)}>{name}</Link>;

const NAME_RENDERS = {
  text: undefined,
  link: nameLink,
  linkWithFlags: (name: string, user: UserDto) => (
    <Space size={6} wrap>
      {nameLink(name, user)}
      {user.isBanned && <BannedTag />}
      {user.isVip && <VipTag />}
    </Space>
  ),
};

/**
 * The columns the back-office user lists share, as `Table.Column` children: each column's title,
 * width, rendering and sortability are decided here, once, and a list only picks and orders them.
 */
export function userColumns(
  t: TFunction,
  { columns, sorters, name, ns = "users" }: UserColumnOptions,
) {
  const title = (field: keyof UserDto) => t(`${ns}:fields.${field}`);
  const orNone = (value: string | null) => value ?? t(`${ns}:none`);
  // The server sorts by the column's field, so a sortable column is always keyed by its field.
  const sortable = (field: keyof UserDto) => ({
    dataIndex: field,
    sorter: true,
    defaultSortOrder: getDefaultSortOrder(field, sorters),
  });

  const definitions: Record<UserColumn, TableColumnType<UserDto>> = {
    accountNumber: { ...sortable("accountNumber"), title: title("accountNumber"), width: 125 },
    // A width of its own: without one the fixed-width columns left the name a letter wide.
    name: { ...sortable("name"), title: title("name"), width: 180, render: NAME_RENDERS[name] },
    email: {
      dataIndex: "email",
      title: title("email"),
      width: 230,
      ellipsis: true,
      render: orNone,
    },
    phone: { dataIndex: "phone", title: title("phone"), width: 135, render: orNone },
    role: {
      ...sortable("role"),
      title: title("role"),
      width: 100,
      render: (role: UserRole) => <RoleTag role={role} />,
    },
    approvalStatus: {
      ...sortable("approvalStatus"),
      title: title("approvalStatus"),
      width: 125,
      render: (status: ApprovalStatus) => <ApprovalStatusTag status={status} />,
    },
    createdAt: {
      ...sortable("createdAt"),
      title: title("createdAt"),
      width: 125,
      render: (value: string) => formatDate(value),
    },
    submittedAt: {
      ...sortable("createdAt"),
      title: t("approval:list.submittedAt"),
      width: 160,
      render: (value: string) => formatDateTime(value),
    },
    lastActiveAt: {
      ...sortable("lastActiveAt"),
      title: title("lastActiveAt"),
      width: 130,
      render: (value: string | null) => (value ? formatDate(value) : t(`${ns}:never`)),
    },
  };

  return columns.map((column) => {
    const definition = definitions[column];
    return <Table.Column<UserDto> key={String(definition.dataIndex)} {...definition} />;
  });
}
