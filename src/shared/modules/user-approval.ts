import { defineModule, NEWEST_FIRST } from "../kit/module";
import { approvalDecision } from "../kit/presets";
import { PERMISSION } from "../permissions";
import { USER_COLUMNS, userFields, users } from "./users";

/** User > Approval: the users list, always filtered to pending users, with the decision. */
export const userApproval = defineModule({
  name: "user-approval",
  viewOf: users,
  fixedFilters: { approvalStatus: "pending" },
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
    decide: approvalDecision("user", "approvalStatus"),
  },
});
