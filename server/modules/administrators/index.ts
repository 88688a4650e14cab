/**
 * The administrators module: its list, record, create and edit forms from the declaration, the
 * forms under its rules (./rules.ts), and its own routes.
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
  endpoints: administratorEndpoints,
});
