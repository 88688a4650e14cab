import { z } from "zod";

import { ADMIN_LANGUAGES, ADMIN_STATUSES, ADMIN_THEMES } from "../domain";
import { defineModule, field, type ItemOf, NEWEST_FIRST } from "../kit/module";
import { isoDateTime } from "../kit/types";
import { PERMISSION } from "../permissions";

/** Admin (8): the staff who use this console, their permissions and status. */
export const administrators = defineModule({
  name: "administrators",
  collection: "administrators",
  queryName: "administrators",
  menu: "admin",
  permission: PERMISSION.admin,
  thing: { one: "Administrator", many: "Administrators" },
  i18n: "admin",
  schemaId: "AdminDto",
  paths: {
    list: "/admin-mgmt",
    show: "/manage-admin",
    create: "/admin-mgmt/create",
    edit: "/manage-admin/:id/edit",
  },
  fields: {
    id: field(z.number().int(), { filter: "numberRange", sort: true }),
    name: field(z.string(), {
      list: true,
      filter: "text",
      sort: true,
      search: true,
      display: { kind: "link", to: "administrators", idField: "id" },
    }),
    email: field(z.string(), { list: { width: 240 }, filter: "text", sort: true, search: true }),
    permissions: field(z.array(z.number().int())),
    isSuperAdmin: field(z.boolean(), { filter: "boolean" }),
    status: field(z.enum(ADMIN_STATUSES), {
      list: { width: 110 },
      filter: "choice",
      sort: true,
      display: { kind: "tag", colours: { active: "green", disabled: "grey", banned: "red" } },
    }),
    language: field(z.enum(ADMIN_LANGUAGES).nullable()),
    /** The console's colour scheme the administrator chose (null: light). */
    theme: field(z.enum(ADMIN_THEMES).nullable()),
    lastLoginAt: field(isoDateTime.nullable(), {
      list: { width: 130 },
      filter: "dateRange",
      sort: true,
      display: { kind: "date" },
      empty: "never",
    }),
    createdAt: field(isoDateTime, {
      list: { width: 130 },
      filter: "dateRange",
      sort: true,
      display: { kind: "date" },
    }),
    updatedAt: field(isoDateTime),
  },
  titleField: "name",
  defaultSort: NEWEST_FIRST,
});

/** An administrator as the API shows it; never the password hash. */
export type AdminDto = ItemOf<typeof administrators>;
