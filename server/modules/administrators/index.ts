/**
 * The administrators module: its list, record, create and edit forms and its status and
 * permission actions from the declaration, all under its rules (./rules.ts), and its own routes.
 */
import { administrators as declaration } from "../../../src/shared/modules/administrators";
import { administrators } from "../../db/schema";
import { bindModule } from "../../kit/bind";
import { administratorEndpoints } from "./endpoints";
import { createAdministrator, updateAdministrator } from "./rules";

export const administratorsModule = bindModule(declaration, {
  table: administrators,
  create: async (tx, { actor, body }) => (await createAdministrator(tx, actor, body)).id,
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
  },
  endpoints: administratorEndpoints,
});
