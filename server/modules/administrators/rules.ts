/**
 * The administrators module's own rules: creating an administrator and changing one, under the
 * rules that keep the back office governable (see updateAdministrator). The kit's create and edit
 * forms (and the legacy permission call, through changeRecord) run them inside their transaction
 * and write the audit entry; the rules write none.
 */
import { and, eq, isNull, ne, or, sql } from "drizzle-orm";

import { codesLacking, PERMISSION } from "../../../src/shared/permissions";
import { assertStrongPassword, hashPassword } from "../../auth/password";
import type { DbOrTx, Tx } from "../../db";
import {
  administratorPasswordResets,
  administrators,
  type AdministratorRow,
  type AdminStatus,
} from "../../db/schema";
import { conflict, isUniqueViolation, notFound } from "../../errors";
import { assertManageable, findAdministrator, notHeld } from "../../services/administrators";

/** Sorted, without duplicates: the stored form of a permission list. */
export function normalisePermissions(codes: readonly number[]): number[] {
  return [...new Set(codes)].sort((a, b) => a - b);
}

/**
 * An administrator grants or removes only codes it holds itself (a super administrator holds
 * all): otherwise a holder of Admin (8) alone could grant itself every module.
 */
export function assertGrantable(actor: AdministratorRow, codes: Iterable<number>): void {
  const foreign = codesLacking(actor, codes);
  if (foreign.length > 0) {
    throw notHeld(foreign, "You can grant or remove only permissions you hold yourself");
  }
}

const emailTaken = (email: string) =>
  conflict("EMAIL_TAKEN", `The e-mail ${email} is already used by another administrator`);

/** An active administrator who holds Admin (8), directly or as a super administrator. */
function isAdminHolder(admin: Pick<AdministratorRow, "status" | "isSuperAdmin" | "permissions">) {
  return (
    admin.status === "active" &&
    (admin.isSuperAdmin || admin.permissions.includes(PERMISSION.admin))
  );
}

/**
 * Administrator changes run one at a time: the last-holder and e-mail checks read other rows, and a
 * transaction-scoped advisory lock makes "check, then write" safe against a concurrent change.
 */
const ADMINISTRATORS_LOCK_KEY = 7_351_004_208;

async function lockAdministrators(tx: Tx) {
  await tx.execute(sql`select pg_advisory_xact_lock(${ADMINISTRATORS_LOCK_KEY}::bigint)`);
}

export async function isEmailAvailable(db: DbOrTx, email: string, excludeId?: number) {
  const [row] = await db
    .select({ id: administrators.id })
    .from(administrators)
    .where(
      and(
        sql`lower(${administrators.email}) = lower(${email})`,
        excludeId === undefined ? undefined : ne(administrators.id, excludeId),
      ),
    )
    .limit(1);
  return row === undefined;
}

/** A new administrator: the initial password as typed, or as its hash (kept by four eyes). */
export type NewAdministrator = {
  name: string;
  email: string;
  permissions: readonly number[];
} & ({ password: string } | { passwordHash: string });

/** What a change request keeps of a new administrator: the password as its hash only. */
export async function withPasswordHashed(input: NewAdministrator): Promise<NewAdministrator> {
  if (!("password" in input)) return input;
  const { password, ...rest } = input;
  assertStrongPassword(password);
  return { ...rest, passwordHash: await hashPassword(password) };
}

/**
 * Creates an administrator: only with codes the actor holds (403 PERMISSION_NOT_HELD), a
 * password that meets the policy (400 WEAK_PASSWORD) and an e-mail no administrator uses in any
 * letter case (409 EMAIL_TAKEN). In a transaction of its own (a savepoint inside the caller's).
 */
export async function createAdministrator(
  db: DbOrTx,
  actor: AdministratorRow,
  input: NewAdministrator,
): Promise<AdministratorRow> {
  assertGrantable(actor, input.permissions);
  const { passwordHash } = (await withPasswordHashed(input)) as { passwordHash: string };
  try {
    return await db.transaction(async (tx) => {
      await lockAdministrators(tx);
      if (!(await isEmailAvailable(tx, input.email))) throw emailTaken(input.email);
      const [created] = await tx
        .insert(administrators)
        .values({
          name: input.name,
          email: input.email,
          passwordHash,
          permissions: normalisePermissions(input.permissions),
        })
        .returning();
      if (!created) throw new Error("INSERT administrators returned no row");
      return created;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken(input.email);
    throw error;
  }
}

export interface AdministratorChanges {
  name?: string;
  email?: string;
  permissions?: readonly number[];
  status?: AdminStatus;
}

const sameSet = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((value, index) => value === b[index]);

/**
 * Applies a partial change to an administrator, enforcing the rules that keep the back office
 * governable: an actor changes only administrators it may manage (`assertManageable`: 403
 * SUPER_ADMIN_ONLY or PERMISSION_NOT_HELD); a super administrator's permissions and status never
 * change through the API (so the last one always remains); an administrator grants or removes
 * only codes it holds (403 PERMISSION_NOT_HELD); nobody changes their own status; and the last
 * active holder of Admin (8) keeps it. Nobody sets another's password: that is a reset link to
 * the owner's own e-mail (`issueAdministratorPasswordReset`). In a transaction of its own (a
 * savepoint inside the caller's); the caller audits (changeRecord).
 */
export async function updateAdministrator(
  db: DbOrTx,
  actor: AdministratorRow,
  id: number,
  changes: AdministratorChanges,
): Promise<AdministratorRow> {
  try {
    return await db.transaction(async (tx) => {
      await lockAdministrators(tx);
      const current = await findAdministrator(tx, id);
      if (!current) throw notFound("Administrator");

      const permissions =
        changes.permissions === undefined ? undefined : normalisePermissions(changes.permissions);
      const permissionsChange =
        permissions !== undefined &&
        !sameSet(permissions, normalisePermissions(current.permissions));
      const statusChange = changes.status !== undefined && changes.status !== current.status;
      const emailChange = changes.email !== undefined && changes.email !== current.email;

      const nameChange = changes.name !== undefined && changes.name !== current.name;
      const anyChange = nameChange || emailChange || permissionsChange || statusChange;
      if (anyChange) assertManageable(actor, current);
      if (current.isSuperAdmin && (permissionsChange || statusChange)) {
        throw conflict(
          "SUPER_ADMIN_IMMUTABLE",
          "A super administrator's permissions and status cannot be changed",
        );
      }
      if (permissionsChange && permissions !== undefined) {
        const before = new Set(current.permissions);
        const after = new Set(permissions);
        const moved = [...after].filter((code) => !before.has(code));
        moved.push(...[...before].filter((code) => !after.has(code)));
        assertGrantable(actor, moved);
      }
      if (statusChange && current.id === actor.id) {
        throw conflict("SELF_STATUS_CHANGE", "You cannot change your own status");
      }

      const next = {
        ...current,
        permissions: permissions ?? current.permissions,
        status: changes.status ?? current.status,
      };
      if (isAdminHolder(current) && !isAdminHolder(next)) {
        const [others] = await tx
          .select({ count: sql<number>`count(*)::int` })
          .from(administrators)
          .where(
            and(
              ne(administrators.id, current.id),
              eq(administrators.status, "active"),
              or(
                eq(administrators.isSuperAdmin, true),
                sql`${PERMISSION.admin} = any(${administrators.permissions})`,
              ),
            ),
          );
        if ((others?.count ?? 0) === 0) {
          throw conflict(
            "LAST_ADMIN_HOLDER",
            "This change would leave no active administrator holding the Admin permission (8)",
          );
        }
      }

      if (emailChange && changes.email !== undefined) {
        if (!(await isEmailAvailable(tx, changes.email, current.id)))
          throw emailTaken(changes.email);
      }

      const set: Partial<typeof administrators.$inferInsert> = {};
      if (nameChange) set.name = changes.name;
      if (emailChange) set.email = changes.email;
      if (permissionsChange) set.permissions = permissions;
      if (statusChange) set.status = changes.status;
      if (Object.keys(set).length === 0) return current;
      // A new e-mail or status ends every session the administrator had (issue 16).
      if (emailChange || statusChange) {
        set.credentialVersion = current.credentialVersion + 1;
      }
      // A reset link went to the old address: it no longer sets this account's password.
      if (emailChange) {
        await tx
          .update(administratorPasswordResets)
          .set({ usedAt: new Date() })
          .where(
            and(
              eq(administratorPasswordResets.administratorId, current.id),
              isNull(administratorPasswordResets.usedAt),
            ),
          );
      }

      const [updated] = await tx
        .update(administrators)
        .set(set)
        .where(eq(administrators.id, current.id))
        .returning();
      if (!updated) throw notFound("Administrator");
      return updated;
    });
  } catch (error) {
    if (isUniqueViolation(error) && changes.email !== undefined) throw emailTaken(changes.email);
    throw error;
  }
}
