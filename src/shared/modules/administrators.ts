import { z } from "zod";

import { ADMIN_LANGUAGES, ADMIN_STATUSES, ADMIN_THEMES } from "../domain";
import { defineModule, field, form, type ItemOf, NEWEST_FIRST } from "../kit/module";
import { choice, instant, recordId, timestamps } from "../kit/presets";
import { PERMISSION } from "../permissions";
import {
  createAdministratorBodySchema,
  updateAdministratorBodySchema,
} from "../schemas/administrator-forms";

/** No field of an administrator is on a generated detail page or in a CSV export. */
const OWN_SCREENS = { show: false, export: false } as const;

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
    id: recordId(),
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
    status: choice(z.enum(ADMIN_STATUSES), {
      ...OWN_SCREENS,
      list: 110,
      colours: { active: "green", disabled: "grey", banned: "red" },
    }),
    language: field(z.enum(ADMIN_LANGUAGES).nullable()),
    /** The console's colour scheme the administrator chose (null: light). */
    theme: field(z.enum(ADMIN_THEMES).nullable()),
    lastLoginAt: instant({
      ...OWN_SCREENS,
      nullable: true,
      list: 130,
      display: "date",
      empty: "never",
    }),
    ...timestamps({ ...OWN_SCREENS, list: 130, display: "date" }),
  },
  titleField: "name",
  defaultSort: NEWEST_FIRST,
  /** Under the rules of server/modules/administrators/rules.ts (e-mail, codes, password). */
  create: form({ body: createAdministratorBodySchema, audit: "administrator" }),
  /** Sending what it already is changes nothing and writes no audit entry. */
  edit: form({
    body: updateAdministratorBodySchema,
    audit: "administrator",
    quietWhenUnchanged: true,
  }),
});

/** An administrator as the API shows it; never the password hash. */
export type AdminDto = ItemOf<typeof administrators>;
