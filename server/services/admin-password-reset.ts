/**
 * An administrator's password, set by nobody else: a colleague who may manage the administrator
 * (`assertManageable`) can only have a one-time link e-mailed to the administrator's own address
 * (issue 30: an Admin (8) holder used to set a more powerful colleague's password and sign in as
 * them); the administrators module's `passwordReset` action issues it (resetLinkAction). The link
 * works as a wallet user's (password-reset.ts): one hour, once, newest only.
 */
import type { StaffResetLink } from "../../src/shared/schemas/password-reset";
import { ADMINISTRATOR_RESET_LINKS, resetLinkUses } from "./password-reset";

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
