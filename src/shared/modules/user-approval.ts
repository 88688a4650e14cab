import { decision, defineModule } from "../kit/module";
import { PERMISSION } from "../permissions";
import { userFields, users } from "./users";

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
    accountNumber: { list: { width: 125 } },
    name: { list: { width: 180 }, display: { kind: "link", to: "users", idField: "id" } },
    email: { list: { width: 230 } },
    phone: { list: { width: 135 } },
    role: { list: { width: 100 } },
    createdAt: { list: { width: 160 }, display: { kind: "dateTime" } },
  }),
  titleField: "name",
  defaultSort: [
    ["createdAt", "desc"],
    ["id", "desc"],
  ],
  actions: {
    decide: decision({
      path: "approval-action",
      when: { approvalStatus: ["pending"] },
      bulk: true,
      audit: "user",
    }),
  },
});
