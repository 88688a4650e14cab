import { createHash, randomBytes } from "node:crypto";

import { and, eq, isNull } from "drizzle-orm";

import { recordAudit } from "../audit";
import type { Db } from "../db";
import { userPasswordResets, type AdministratorRow, type UserRow } from "../db/schema";
import { conflict } from "../errors";
import { lockUser } from "./user-actions";

/** How long an e-mailed reset link works. */
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

/** The stored form of a token: its SHA-256 (the token itself has 256 random bits, no salt needed). */
export const hashResetToken = (token: string) => createHash("sha256").update(token).digest("hex");

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
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + RESET_TOKEN_TTL_MS);
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
      tokenHash: hashResetToken(token),
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
