import { createHash, randomBytes } from "node:crypto";

import { and, eq, isNull } from "drizzle-orm";

import { recordAudit } from "../audit";
import type { Db } from "../db";
import { userPasswordResets, type AdministratorRow, type UserRow } from "../db/schema";
import { conflict, HttpError } from "../errors";
import { lockUser } from "./user-actions";

/**
 * E-mailed password reset links, for wallet users (issued here) and administrators
 * (admin-password-reset.ts): a token with 256 random bits, of which only the SHA-256 is stored,
 * valid one hour and once; only the newest link of a person works.
 */

/** How long an e-mailed reset link works. */
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

/** The stored form of a token: its SHA-256 (the token itself has 256 random bits, no salt needed). */
export const hashResetToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A new link's token (returned once, to be e-mailed), its stored hash and its expiry. */
export function newResetToken(now: Date) {
  const token = randomBytes(32).toString("base64url");
  return {
    token,
    tokenHash: hashResetToken(token),
    expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS),
  };
}

export const RESET_LINK_ERRORS = {
  invalid: () => new HttpError(404, "This password reset link is not valid", "RESET_LINK_INVALID"),
  expired: () => new HttpError(410, "This password reset link has expired", "RESET_LINK_EXPIRED"),
  used: () =>
    new HttpError(
      410,
      "This password reset link was used already, or a newer one replaced it",
      "RESET_LINK_USED",
    ),
};

/**
 * `found` (a link's row, with whatever was joined to it) when its link, `linkOf(found)`, can still
 * be used at `now`; refused when it is unknown, spent (used or replaced) or expired.
 */
export function usableLink<T>(
  found: T | undefined,
  linkOf: (found: T) => { usedAt: Date | null; expiresAt: Date },
  now: Date,
): T {
  if (found === undefined) throw RESET_LINK_ERRORS.invalid();
  const link = linkOf(found);
  if (link.usedAt) throw RESET_LINK_ERRORS.used();
  if (link.expiresAt.getTime() <= now.getTime()) throw RESET_LINK_ERRORS.expired();
  return found;
}

export interface IssuedReset {
  user: UserRow;
  /** Where the link goes: the user's e-mail (a user without one gets 409 NO_EMAIL). */
  email: string;
  /** Returned once, to be e-mailed; never stored or logged. */
  token: string;
  expiresAt: Date;
}

/**
 * Issues a one-time reset token for the user with `accountNumber`, replacing any earlier unused
 * one (only the newest link works), with an audit entry in the same transaction.
 */
export async function issuePasswordReset(
  db: Db,
  actor: AdministratorRow,
  accountNumber: string,
  now = new Date(),
): Promise<IssuedReset> {
  const { token, tokenHash, expiresAt } = newResetToken(now);
  const { user, email } = await db.transaction(async (tx) => {
    const user = await lockUser(tx, { accountNumber });
    if (!user.email) {
      throw conflict("NO_EMAIL", "This user has no e-mail address to send the reset link to");
    }
    // Only the newest link works: earlier unused ones are retired (marked used now).
    await tx
      .update(userPasswordResets)
      .set({ usedAt: now })
      .where(and(eq(userPasswordResets.userId, user.id), isNull(userPasswordResets.usedAt)));
    await tx.insert(userPasswordResets).values({
      userId: user.id,
      tokenHash,
      expiresAt,
      requestedBy: actor.id,
    });
    await recordAudit(tx, {
      adminId: actor.id,
      action: "user.reset_password",
      targetTable: "users",
      targetId: user.id,
      after: { email: user.email, expiresAt: expiresAt.toISOString() },
    });
    return { user, email: user.email };
  });
  return { user, email, token, expiresAt };
}
