import { getDefaultSortOrder } from "@refinedev/antd";
import type { CrudSort } from "@refinedev/core";
import { Space, Table, type TableColumnType } from "antd";
import type { TFunction } from "i18next";
import { Link } from "react-router";
import { formatDate } from "../../app/format";
import type { ApprovalStatus, UserDto, UserRole } from "../../providers/api-types";
import { userShowPath } from "./paths";
import { ApprovalStatusTag, BannedTag, RoleTag, VipTag } from "./tags";

export type UserColumn =
  "accountNumber" | "name" | "email" | "phone" | "role" | "approvalStatus" | "createdAt";

interface UserColumnOptions {
  /** The columns, in the order the list shows them. */
  columns: readonly UserColumn[];
  /** The table's sorters, which mark the column the list is sorted by. */
  sorters: CrudSort[];
  /** The name as plain text, as a link to the user's detail, or as that link with ban/VIP tags. */
  name: "text" | "link" | "linkWithFlags";
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
export function userColumns(t: TFunction, { columns, sorters, name }: UserColumnOptions) {
  const title = (field: keyof UserDto) => t(`users:fields.${field}`);
  const orNone = (value: string | null) => value ?? t("users:none");
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
  };

  return columns.map((column) => {
    const definition = definitions[column];
    return <Table.Column<UserDto> key={String(definition.dataIndex)} {...definition} />;
  });
}
