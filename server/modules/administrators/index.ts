/**
 * The administrators module: its list, record, create and edit forms, its status and permission
 * actions and its password reset link from the declaration, all under its rules (./rules.ts),
 * and its own routes.
 */
import { administrators as declaration } from "../../../src/shared/modules/administrators";
import { removeSecondFactors, secondFactorExists } from "../../auth/factors";
import { endAllSessions } from "../../auth/sessions";
import type { DbOrTx } from "../../db";
import { administrators, type AdministratorRow } from "../../db/schema";
import { bindModule } from "../../kit/bind";
import { forbidden, notFound } from "../../errors";
import { assertManageable, findAdministrator } from "../../services/administrators";
import { ADMINISTRATOR_RESET_LINKS, resetLinkAction } from "../../services/password-reset";
import { administratorEndpoints } from "./endpoints";
import {
  createAdministrator,
  updateAdministrator,
  withPasswordHashed,
  type NewAdministrator,
} from "./rules";

/**
 * Another administrator than `actor`, whom `actor` may manage (every code they hold; a super
 * administrator only by a super administrator), as for any change of an administrator: their
 * second factor and sessions (one's own are on one's account page).
 */
async function otherAdministrator(db: DbOrTx, actor: AdministratorRow, id: number) {
  const target = await findAdministrator(db, id);
  if (!target) throw notFound("Administrator");
  assertManageable(actor, target);
  if (actor.id === id) {
    throw forbidden("OWN_ACCOUNT", "Use your own account page for your own sign-in");
  }
  return target;
}

export const administratorsModule = bindModule(declaration, {
  table: administrators,
  columns: {
    hasSecondFactor: secondFactorExists(administrators),
  },
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
    resetFactors: async (tx, { actor, id }) => {
      await otherAdministrator(tx, actor, id);
      await removeSecondFactors(tx, id);
      await endAllSessions(tx, id, "ended-by-admin");
    },
    endSessions: {
      run: async (tx, { actor, id }) => {
        await otherAdministrator(tx, actor, id);
        return { ended: await endAllSessions(tx, id, "ended-by-admin") };
      },
      audit: ({ ended }) => ({ after: { sessionsEnded: ended } }),
      after: async (result) => result,
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
