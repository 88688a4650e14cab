import { z } from "zod";

import { APPROVAL_STATUSES, RIDER_VERIFICATION_STATUSES, USER_ROLES } from "../domain";
import { defineModule, field, type FieldOptions, type ItemOf, NEWEST_FIRST } from "../kit/module";
import { isoDateTime } from "../kit/types";
import { PERMISSION } from "../permissions";

export const ROLE_TAGS = {
  student: "blue",
  staff: "cyan",
  public: "grey",
  merchant: "purple",
  rider: "orange",
  agent: "magenta",
} as const;
export const APPROVAL_TAGS = { pending: "gold", approved: "green", rejected: "red" } as const;

type Listing = Pick<FieldOptions, "list" | "export" | "display" | "control">;

/**
 * A wallet account holder as the API shows it (docs/domain.md), and how lists may filter,
 * sort and search them: shared by User > User, User > Approval and Dormant Account, which differ
 * only in the columns they show (`listed`).
 */
export function userFields(listed: Partial<Record<string, Listing>> = {}) {
  return {
    id: field(z.number().int(), { filter: "numberRange" }),
    accountNumber: field(z.string().describe("Unique, human-readable account number"), {
      filter: "text",
      sort: true,
      search: true,
      ...listed.accountNumber,
    }),
    name: field(z.string(), { filter: "text", sort: true, search: true, ...listed.name }),
    email: field(z.string().nullable(), { filter: "text", search: true, ...listed.email }),
    phone: field(z.string().nullable(), { filter: "text", search: true, ...listed.phone }),
    role: field(z.enum(USER_ROLES), {
      filter: "choice",
      sort: true,
      display: { kind: "tag", colours: ROLE_TAGS },
      ...listed.role,
    }),
    approvalStatus: field(z.enum(APPROVAL_STATUSES), {
      filter: "choice",
      sort: true,
      display: { kind: "tag", colours: APPROVAL_TAGS },
      ...listed.approvalStatus,
    }),
    approvalRemark: field(z.string().nullable()),
    /** A rider's verification status (none for other roles), for "pending rider verifications". */
    riderVerification: field(z.enum(RIDER_VERIFICATION_STATUSES).nullable(), {
      filter: "choice",
      filterOnly: true,
      ...listed.riderVerification,
    }),
    isBanned: field(z.boolean(), { filter: "boolean", ...listed.isBanned }),
    banRemark: field(z.string().nullable()),
    isVip: field(z.boolean(), { filter: "boolean", ...listed.isVip }),
    url: field(z.string().nullable(), listed.url),
    lastActiveAt: field(
      isoDateTime.nullable().describe("Drives dormancy; null before first activity"),
      {
        filter: "dateRange",
        sort: true,
        display: { kind: "date" },
        empty: "never",
        ...listed.lastActiveAt,
      },
    ),
    createdAt: field(isoDateTime, {
      filter: "dateRange",
      sort: true,
      display: { kind: "date" },
      ...listed.createdAt,
    }),
    updatedAt: field(isoDateTime),
  };
}

/** The columns every list of users shows, in this order (a list adds its own). */
export const USER_COLUMNS = {
  accountNumber: { list: { width: 125 } },
  // A width of its own: without one the fixed-width columns left the name a letter wide.
  name: { list: { width: 180 }, display: { kind: "link", to: "users", idField: "id" } },
  email: { list: { width: 230 } },
  phone: { list: { width: 135 } },
  role: { list: { width: 100 } },
} as const satisfies Partial<Record<string, Listing>>;

/** User > User: every wallet account holder. */
export const users = defineModule({
  name: "users",
  collection: "users",
  queryName: "users",
  menu: "user-mgmt",
  permission: PERMISSION.user,
  thing: { one: "User", many: "Users" },
  i18n: "users",
  schemaId: "UserDto",
  paths: { list: "/user-mgmt", show: "/user-details" },
  fields: userFields({
    ...USER_COLUMNS,
    approvalStatus: { list: { width: 125 } },
    riderVerification: { control: true },
    isBanned: { control: true },
    isVip: { control: true },
    createdAt: { list: { width: 125 } },
  }),
  titleField: "name",
  defaultSort: NEWEST_FIRST,
});

export type UserDto = ItemOf<typeof users>;
