/**
 * The wallet app's password: set through a link the back office e-mailed (password-reset.ts
 * issues it), then used to sign in. Every refusal has its own code, which the reset page and the
 * app translate.
 */
import { eq, sql } from "drizzle-orm";

import { recordAudit } from "../audit";
import {
  assertStrongPassword,
  hashPassword,
  verifyAgainstDecoy,
  verifyPassword,
} from "../auth/password";
import type { Db, DbOrTx } from "../db";
import { userPasswordResets, users, wallets, type UserRow } from "../db/schema";
import { HttpError } from "../errors";
import type { ResetLink, WalletProfile } from "../../src/shared/schemas/wallet-app";
import { hashResetToken, usableLink } from "./password-reset";

export const WALLET_SIGN_IN_ERRORS = {
  wrong: () => new HttpError(401, "Wrong account number or password", "WRONG_CREDENTIALS"),
  banned: () => new HttpError(403, "This account is banned", "USER_BANNED"),
};

/** The link's row and its user, refused unless it can still be used at `now`. */
async function findUsableLink(db: DbOrTx, token: string, now: Date, lock: boolean) {
  const query = db
    .select({ reset: userPasswordResets, user: users })
    .from(userPasswordResets)
    .innerJoin(users, eq(users.id, userPasswordResets.userId))
    .where(eq(userPasswordResets.tokenHash, hashResetToken(token)));
  const [found] = await (lock ? query.for("update") : query);
  return usableLink(found, ({ reset }) => reset, now);
}

export async function resetLink(db: Db, token: string, now = new Date()): Promise<ResetLink> {
  const { reset, user } = await findUsableLink(db, token, now, false);
  return {
    accountNumber: user.accountNumber,
    name: user.name,
    expiresAt: reset.expiresAt.toISOString(),
  };
}

/**
 * Sets the user's wallet password and spends the link, once: two uses of one link at the same
 * time find it locked, and the second finds it used. Every wallet app token issued before stops
 * working (the credential version moves on).
 */
export async function completePasswordReset(
  db: Db,
  token: string,
  password: string,
  now = new Date(),
): Promise<ResetLink> {
  assertStrongPassword(password);
  // Checked before the costly hash, so a stream of dead links costs no hashing.
  await findUsableLink(db, token, now, false);
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const { reset, user } = await findUsableLink(tx, token, now, true);
    await tx
      .update(userPasswordResets)
      .set({ usedAt: now })
      .where(eq(userPasswordResets.id, reset.id));
    await tx
      .update(users)
      .set({ passwordHash, credentialVersion: sql`${users.credentialVersion} + 1` })
      .where(eq(users.id, user.id));
    await recordAudit(tx, {
      adminId: null,
      action: "user.password_reset_completed",
      targetTable: "users",
      targetId: user.id,
      after: { resetRequestedBy: reset.requestedBy },
    });
    return {
      accountNumber: user.accountNumber,
      name: user.name,
      expiresAt: reset.expiresAt.toISOString(),
    };
  });
}

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
