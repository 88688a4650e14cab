import { z } from "zod";

import { ADMIN_LANGUAGES, ADMIN_STATUSES, ADMIN_THEMES } from "../domain";
import {
  confirmAction,
  defineModule,
  remarkAction,
  effectAction,
  field,
  form,
  formAction,
  type ItemOf,
  NEWEST_FIRST,
} from "../kit/module";
import { choice, instant, recordId, timestamps } from "../kit/presets";
import { PERMISSION } from "../permissions";
import { resetPasswordResponseSchema } from "../schemas/user-mgmt";
import {
  adminPermissionsBodySchema,
  adminStatusBodySchema,
  changeAdminPermissionBodySchema,
  createAdministratorBodySchema,
  updateAdministratorBodySchema,
} from "../schemas/administrator-forms";

/** How many sessions an ending of sessions ended (also `POST /api/account/sessions/end-others`). */
export const endedSessionsSchema = z
  .object({ ended: z.number().int().describe("How many sessions ended") })
  .meta({ id: "EndedSessions" });

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
    /** Whether the administrator has a confirmed authenticator app (a reset takes it away). */
    hasSecondFactor: field(z.boolean(), { filter: "boolean" }),
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
  // A new staff account, and the power it is given: a second approver, once there can be one.
  create: form({
    body: createAdministratorBodySchema,
    audit: "administrator",
    fourEyes: { unlessNoChecker: true },
    stepUp: true,
  }),
  /**
   * Name and e-mail only (status or permissions here are a 400): power moves through the actions
   * below. Sending what it already is changes nothing and writes no audit entry.
   */
  edit: form({
    body: updateAdministratorBodySchema,
    audit: "administrator",
    quietWhenUnchanged: true,
  }),
  /**
   * Power moves only through these two actions, under the module's rules (who may manage whom,
   * codes only granted by their holders, the last Admin holder kept, nobody their own status):
   * audited `administrator.enable|disable|ban` and `administrator.change_permissions`.
   */
  actions: {
    status: confirmAction({
      verbs: {
        disable: { done: "disabled", value: "disabled" },
        enable: { done: "enabled", value: "active" },
        ban: { done: "banned", value: "banned" },
      },
      field: "status",
      method: "PATCH",
      path: "status",
      stepUp: true,
      body: adminStatusBodySchema,
      whenOf: {
        disable: { status: ["active"] },
        enable: { status: ["disabled", "banned"] },
        ban: { status: ["active", "disabled"] },
      },
      refusal: {
        disable: "This administrator is not active",
        enable: "This administrator is already active",
        ban: "This administrator is already banned",
      },
      conflictCode: "ALREADY_IN_STATE",
      audit: "administrator",
      thing: "Administrator Status",
      danger: true,
    }),
    permissions: formAction({
      verb: "change_permissions",
      done: "permissionsSaved",
      method: "PATCH",
      path: "permissions",
      body: adminPermissionsBodySchema,
      when: {},
      conflictCode: "CONFLICT",
      audit: "administrator",
      thing: "Change Admin Permission",
      quietWhenUnchanged: true,
      // Power granted or taken: always a second approver.
      fourEyes: {},
      stepUp: true,
      aliases: [
        {
          method: "POST",
          url: "/user-mgmt/change-admin-permission",
          summary: "Replace an administrator's permission codes",
          thing: "Change Admin Permission",
          body: changeAdminPermissionBodySchema,
          key: { from: "admin_id", field: "id" },
          toBody: ({ permission_codes }) => ({ permissions: permission_codes }),
        },
      ],
    }),
    /**
     * E-mails the administrator a one-time link to set a new password, to their own address
     * (nobody sets a colleague's password), under the same rule of who may manage whom: 202 once
     * sent, 502 MAIL_FAILED when it could not be. Audited `administrator.reset_password`.
     */
    passwordReset: effectAction({
      verb: "reset_password",
      done: "resetSent",
      path: "password-reset",
      when: {},
      conflictCode: "CONFLICT",
      audit: "administrator",
      thing: "Reset Administrator Password",
      answer: { status: 202, response: resetPasswordResponseSchema, failures: [502] },
    }),
    /**
     * On another's account that has one, by someone who may manage them (as a status change): the
     * authenticator app and the recovery codes go, and every session ends (the administrator signs in with the password
     * and enrols again where a second factor is required). Power over a sign-in: a second
     * approver and a step-up.
     */
    resetFactors: remarkAction({
      verb: "reset_factors",
      done: "factorsReset",
      path: "factors/reset",
      when: { hasSecondFactor: ["true"] },
      conflictCode: "NO_SECOND_FACTOR",
      audit: "administrator",
      thing: "Reset Administrator Second Factor",
      danger: true,
      fourEyes: {},
      stepUp: true,
    }),
    /**
     * Signs another administrator out everywhere at once (a lost laptop), by someone who may
     * manage them: answered with how many sessions ended, audited each time.
     */
    endSessions: effectAction({
      verb: "end_sessions",
      done: "sessionsEnded",
      path: "sessions/end",
      when: {},
      conflictCode: "CONFLICT",
      audit: "administrator",
      thing: "End Administrator Sessions",
      danger: true,
      answer: { status: 200, response: endedSessionsSchema },
    }),
  },
});

/** An administrator as the API shows it; never the password hash. */
export type AdminDto = ItemOf<typeof administrators>;
