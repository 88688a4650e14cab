/**
 * What the administrators module (server/modules/administrators) shares with sign-in, the own
 * account and the password reset: an administrator as the API shows it and as the audit trail
 * keeps it, who may act on whom, and finding one.
 */
import { eq, sql } from "drizzle-orm";

import { codesLacking, mayManageAdministrator } from "../../src/shared/permissions";
import { administrators as administratorsDeclaration } from "../../src/shared/modules/administrators";
import { toItem } from "../kit/bind";
import type { DbOrTx } from "../db";
import { hasSecondFactor } from "../auth/factors";
import { administrators, type AdministratorRow } from "../db/schema";
import { HttpError } from "../errors";
import type { AdminDto } from "../../src/shared/schemas/administrators";

/** An administrator row as the API shows it (never the hash): the Admin module's record. */
export async function toAdminDto(db: DbOrTx, row: AdministratorRow): Promise<AdminDto> {
  return toItem(administratorsDeclaration, {
    ...row,
    hasSecondFactor: await hasSecondFactor(db, row.id),
  });
}

/**
 * What the audit trail keeps of an administrator's own change of their account: its fields
 * without the timestamps and the second factor (never the hash).
 */
export function adminAuditSnapshot(row: AdministratorRow) {
  const { lastLoginAt: _lastLogin, createdAt: _created, updatedAt: _updated, ...snapshot } = row;
  const { passwordHash: _hash, credentialVersion: _version, ...shown } = snapshot;
  return shown;
}

/** Only a super administrator edits, resets or disables a super administrator (issue 16). */
const superAdminOnly = () =>
  new HttpError(
    403,
    "Only a super administrator can change a super administrator",
    "SUPER_ADMIN_ONLY",
  );

export const notHeld = (codes: number[], message: string) =>
  new HttpError(403, `${message} (not ${codes.join(", ")})`, "PERMISSION_NOT_HELD", { codes });

/**
 * Who may act on another administrator at all (edit, take out of service, send a password reset
 * link): a super administrator only by a super administrator, anyone else only by an actor
 * holding every code the target holds. Otherwise a holder of Admin (8) alone could take over a
 * more powerful colleague's account (change their e-mail, then reset the password) and act with
 * codes it does not hold (issue 30). The rule is `mayManageAdministrator`, shared with the console.
 */
export function assertManageable(actor: AdministratorRow, target: AdministratorRow): void {
  if (mayManageAdministrator(actor, target)) return;
  if (target.isSuperAdmin) throw superAdminOnly();
  throw notHeld(
    codesLacking(actor, target.permissions),
    "You can change only administrators whose every permission you hold yourself",
  );
}

export async function findAdministrator(db: DbOrTx, id: number) {
  const [row] = await db.select().from(administrators).where(eq(administrators.id, id));
  return row;
}

export async function findAdministratorByEmail(db: DbOrTx, email: string) {
  const [row] = await db
    .select()
    .from(administrators)
    .where(sql`lower(${administrators.email}) = lower(${email})`);
  return row;
}
