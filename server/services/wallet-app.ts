/**
 * The wallet app's password: set through a link the back office e-mailed (password-reset.ts
 * issues it), then used to sign in. Every refusal has its own code, which the reset page and the
 * app translate.
 */
import { eq } from "drizzle-orm";

import { verifyAgainstDecoy, verifyPassword } from "../auth/password";
import type { Db, DbOrTx } from "../db";
import { users, wallets, type UserRow } from "../db/schema";
import { HttpError } from "../errors";
import type { ResetLink, WalletProfile } from "../../src/shared/schemas/wallet-app";
import { resetLinkUses, USER_RESET_LINKS } from "./password-reset";

export const WALLET_SIGN_IN_ERRORS = {
  wrong: () => new HttpError(401, "Wrong account number or password", "WRONG_CREDENTIALS"),
  banned: () => new HttpError(403, "This account is banned", "USER_BANNED"),
};

/**
 * A wallet user's link: `check` tells whose wallet password it sets and until when (changing
 * nothing); `complete` sets the password and spends the link, once: two uses of one link at the
 * same time find it locked, and the second finds it used. Every wallet app token issued before
 * stops working (the credential version moves on).
 */
export const walletResetLinks = resetLinkUses(USER_RESET_LINKS, (user, reset): ResetLink => ({
  accountNumber: user.accountNumber,
  name: user.name,
  expiresAt: reset.expiresAt.toISOString(),
}));

export async function walletProfileOf(db: DbOrTx, user: UserRow): Promise<WalletProfile> {
  const [wallet] = await db
    .select({ balanceSen: wallets.balanceSen })
    .from(wallets)
    .where(eq(wallets.userId, user.id));
  return {
    accountNumber: user.accountNumber,
    name: user.name,
    role: user.role,
    approvalStatus: user.approvalStatus,
    balanceSen: wallet?.balanceSen ?? 0,
  };
}

/**
 * The user whose account number and wallet password these are. An unknown account, one without a
 * password yet and a wrong password answer alike, after the same work (a decoy hash).
 */
export async function checkWalletPassword(
  db: Db,
  accountNumber: string,
  password: string,
): Promise<UserRow> {
  const [user] = await db.select().from(users).where(eq(users.accountNumber, accountNumber));
  const valid = user?.passwordHash
    ? await verifyPassword(password, user.passwordHash)
    : await verifyAgainstDecoy(password);
  if (!user || !valid) throw WALLET_SIGN_IN_ERRORS.wrong();
  if (user.isBanned) throw WALLET_SIGN_IN_ERRORS.banned();
  return user;
}
