/**
 * An administrator's password, set by nobody else: a colleague who may manage the administrator
 * (`assertManageable`) can only have a one-time link e-mailed to the administrator's own address
 * (issue 30: an Admin (8) holder used to set a more powerful colleague's password and sign in as
 * them). The link works as a wallet user's (password-reset.ts): one hour, once, newest only.
 */
import { eq } from "drizzle-orm";

import { administrators, type AdministratorRow } from "../db/schema";
import { notFound } from "../errors";
import type { StaffResetLink } from "../../src/shared/schemas/password-reset";
import { assertManageable } from "./administrators";
import {
  ADMINISTRATOR_RESET_LINKS,
  resetLinkIssuer,
  resetLinkUses,
  type IssuedLink,
} from "./password-reset";

/** The link goes to `administrator.email`. */
export interface IssuedAdministratorReset extends IssuedLink {
  administrator: AdministratorRow;
}

/**
 * Issues a reset link for administrator `id` on `actor`'s request, retiring any earlier unused
 * one, with an audit entry in the same transaction. The administrator's password and sessions are
 * untouched until the link is used.
 */
export const issueAdministratorPasswordReset = resetLinkIssuer(
  ADMINISTRATOR_RESET_LINKS,
  async (tx, actor, id: number) => {
    const [target] = await tx
      .select()
      .from(administrators)
      .where(eq(administrators.id, id))
      .for("update");
    if (!target) throw notFound("Administrator");
    assertManageable(actor, target);
    return target;
  },
  (administrator, link): IssuedAdministratorReset => ({ administrator, ...link }),
);

/**
 * An administrator's link: `check` tells whose password it sets and until when (changing
 * nothing); `complete` sets the password and spends the link, once (two uses at the same time:
 * the second finds it used). Every session the administrator had ends (the credential version
 * moves on); a banned or disabled administrator stays so.
 */
export const administratorResetLinks = resetLinkUses(
  ADMINISTRATOR_RESET_LINKS,
  (administrator, reset): StaffResetLink => ({
    email: administrator.email,
    name: administrator.name,
    expiresAt: reset.expiresAt.toISOString(),
  }),
);
