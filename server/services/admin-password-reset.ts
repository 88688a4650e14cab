/**
 * An administrator's password, set by nobody else: a colleague who may manage the administrator
 * (`assertManageable`) can only have a one-time link e-mailed to the administrator's own address
 * (issue 30: an Admin (8) holder used to set a more powerful colleague's password and sign in as
 * them). The link works as a wallet user's (password-reset.ts): one hour, once, newest only.
 */
import { and, eq, isNull, sql } from "drizzle-orm";

import { recordAudit } from "../audit";
import { assertStrongPassword, hashPassword } from "../auth/password";
import type { Db, DbOrTx } from "../db";
import { administratorPasswordResets, administrators, type AdministratorRow } from "../db/schema";
import { notFound } from "../errors";
import type { StaffResetLink } from "../../src/shared/schemas/password-reset";
import { assertManageable } from "./administrators";
import { hashResetToken, newResetToken, usableLink } from "./password-reset";

export interface IssuedAdministratorReset {
  administrator: AdministratorRow;
  /** Returned once, to be e-mailed to `administrator.email`; never stored or logged. */
  token: string;
  expiresAt: Date;
}

/**
 * Issues a reset link for administrator `id` on `actor`'s request, retiring any earlier unused
 * one, with an audit entry in the same transaction. The administrator's password and sessions are
 * untouched until the link is used.
 */
export async function issueAdministratorPasswordReset(
  db: Db,
  actor: AdministratorRow,
  id: number,
  now = new Date(),
): Promise<IssuedAdministratorReset> {
  const { token, tokenHash, expiresAt } = newResetToken(now);
  const administrator = await db.transaction(async (tx) => {
    const [target] = await tx
      .select()
      .from(administrators)
      .where(eq(administrators.id, id))
      .for("update");
    if (!target) throw notFound("Administrator");
    assertManageable(actor, target);
    await tx
      .update(administratorPasswordResets)
      .set({ usedAt: now })
      .where(
        and(
          eq(administratorPasswordResets.administratorId, target.id),
          isNull(administratorPasswordResets.usedAt),
        ),
      );
    await tx.insert(administratorPasswordResets).values({
      administratorId: target.id,
      tokenHash,
      expiresAt,
      requestedBy: actor.id,
    });
    await recordAudit(tx, {
      adminId: actor.id,
      action: "administrator.reset_password",
      targetTable: "administrators",
      targetId: target.id,
      after: { email: target.email, expiresAt: expiresAt.toISOString() },
    });
    return target;
  });
  return { administrator, token, expiresAt };
}

async function findUsableLink(db: DbOrTx, token: string, now: Date, lock: boolean) {
  const query = db
    .select({ reset: administratorPasswordResets, administrator: administrators })
    .from(administratorPasswordResets)
    .innerJoin(administrators, eq(administrators.id, administratorPasswordResets.administratorId))
    .where(eq(administratorPasswordResets.tokenHash, hashResetToken(token)));
  const [found] = await (lock ? query.for("update") : query);
  return usableLink(found, ({ reset }) => reset, now);
}

const linkView = (administrator: AdministratorRow, reset: { expiresAt: Date }): StaffResetLink => ({
  email: administrator.email,
  name: administrator.name,
  expiresAt: reset.expiresAt.toISOString(),
});

/** Whose password a link sets, and until when; changes nothing. */
export async function administratorResetLink(
  db: Db,
  token: string,
  now = new Date(),
): Promise<StaffResetLink> {
  const { reset, administrator } = await findUsableLink(db, token, now, false);
  return linkView(administrator, reset);
}

/**
 * Sets the administrator's password and spends the link, once (two uses at the same time: the
 * second finds it used). Every session the administrator had ends (the credential version moves
 * on); a banned or disabled administrator stays so.
 */
export async function completeAdministratorPasswordReset(
  db: Db,
  token: string,
  password: string,
  now = new Date(),
): Promise<StaffResetLink> {
  assertStrongPassword(password);
  // Checked before the costly hash, so a stream of dead links costs no hashing.
  await findUsableLink(db, token, now, false);
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const { reset, administrator } = await findUsableLink(tx, token, now, true);
    await tx
      .update(administratorPasswordResets)
      .set({ usedAt: now })
      .where(eq(administratorPasswordResets.id, reset.id));
    await tx
      .update(administrators)
      .set({ passwordHash, credentialVersion: sql`${administrators.credentialVersion} + 1` })
      .where(eq(administrators.id, administrator.id));
    await recordAudit(tx, {
      adminId: null,
      action: "administrator.password_reset_completed",
      targetTable: "administrators",
      targetId: administrator.id,
      after: { resetRequestedBy: reset.requestedBy },
    });
    return linkView(administrator, reset);
  });
}
