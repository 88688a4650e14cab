/**
 * The administrators module: its list, record, create and edit forms, its status and permission
 * actions and its password reset link from the declaration, all under its rules (./rules.ts),
 * and its own routes.
 */
import { administrators as declaration } from "../../../src/shared/modules/administrators";
import { administrators } from "../../db/schema";
import { bindModule } from "../../kit/bind";
import { notFound } from "../../errors";
import { assertManageable, findAdministrator } from "../../services/administrators";
import { ADMINISTRATOR_RESET_LINKS, resetLinkAction } from "../../services/password-reset";
import { administratorEndpoints } from "./endpoints";
import {
  createAdministrator,
  updateAdministrator,
  withPasswordHashed,
  type NewAdministrator,
} from "./rules";

export const administratorsModule = bindModule(declaration, {
  table: administrators,
  create: async (tx, { actor, body }) =>
    (await createAdministrator(tx, actor, body as NewAdministrator)).id,
  // A new administrator waits for a second approver: the request keeps the password's hash.
  heldBody: async (change, body) =>
    change === "create" ? withPasswordHashed(body as NewAdministrator) : body,
  edit: async (tx, { actor, id, body }) => {
    await updateAdministrator(tx, actor, id, body);
  },
  actions: {
    status: async (tx, { actor, id, body }) => {
      await updateAdministrator(tx, actor, id, { status: body.status });
    },
    permissions: async (tx, { actor, id, body }) => {
      await updateAdministrator(tx, actor, id, { permissions: body.permissions });
    },
    // To the administrator's own address, by someone who may manage them.
    passwordReset: resetLinkAction(ADMINISTRATOR_RESET_LINKS, "staff", async (tx, actor, id) => {
      const target = await findAdministrator(tx, id);
      if (!target) throw notFound("Administrator");
      assertManageable(actor, target);
      return target;
    }),
  },
  endpoints: administratorEndpoints,
});
