import { defineModule } from "../kit/module";
import { PERMISSION } from "../permissions";
import { userFields, users } from "./users";

/**
 * Dormant Account (38): users with no activity (or, never active, no sign-up) for longer than
 * the dormancy period; a server-side scope of the users.
 */
export const dormantAccounts = defineModule({
  name: "dormant-accounts",
  listPath: "/api/users/dormant",
  scope: "dormant",
  permission: PERMISSION.dormant,
  thing: { one: "Dormant Account", many: "Dormant Accounts" },
  i18n: "dormant",
  viewOf: users,
  paths: { list: "/dormant-account" },
  fields: userFields({
    accountNumber: { list: { width: 125 }, export: true },
    name: { list: { width: 180 }, export: true },
    email: { list: { width: 230 }, export: true },
    phone: { export: true },
    role: { list: { width: 100 }, export: true },
    lastActiveAt: { list: { width: 130 }, export: true },
    createdAt: { export: true },
  }),
  titleField: "name",
  defaultSort: [
    ["lastActiveAt", "asc"],
    ["id", "asc"],
  ],
});
