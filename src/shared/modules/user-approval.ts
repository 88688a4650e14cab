import { decision, defineModule, NEWEST_FIRST } from "../kit/module";
import { PERMISSION } from "../permissions";
import { USER_COLUMNS, userFields, users } from "./users";

/** User > Approval: the users list, always filtered to pending users, with the decision. */
export const userApproval = defineModule({
  name: "user-approval",
  collection: "users",
  queryName: "users",
  viewOf: users,
  fixedFilters: { approvalStatus: "pending" },
  menu: "user-approval",
  permission: PERMISSION.user,
  thing: { one: "User Approval", many: "Users" },
  i18n: "approval",
  paths: { list: "/user-approval" },
  fields: userFields({
    ...USER_COLUMNS,
    createdAt: { list: { width: 160 }, display: { kind: "dateTime" } },
  }),
  titleField: "name",
  defaultSort: NEWEST_FIRST,
  actions: {
    decide: decision({
      path: "approval-action",
      when: { approvalStatus: ["pending"] },
      bulk: true,
      audit: "user",
    }),
  },
});
