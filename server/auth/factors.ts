/**
 * Second factors of administrators: passkeys (./passkeys.ts), an authenticator app (TOTP,
 * RFC 6238: SHA-1, 6 digits, 30 s, a code of the previous, current or next step accepted, none
 * accepted twice) and ten one-time recovery codes. A code's form is checked before it is tried:
 * a code of the wrong length or with letters is a clear 400, not a guess.
 */
import { createHash, randomBytes } from "node:crypto";

import { and, eq, isNotNull, isNull, or, lt, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";

import type { DbOrTx } from "../db";
import type { CodeMethod, SecondFactorMethod } from "../../src/shared/schemas/auth";
import type { administrators } from "../db/schema";
import { adminPasskeys, adminRecoveryCodes, adminTotp } from "../db/schema";
import { HttpError } from "../errors";
import { totpContext, type SecretBox } from "./secret-box";

/** A second factor that was not right (or was used before): nothing says which. */
export const WRONG_CODE = "WRONG_CODE";
export const wrongCode = () =>
  new HttpError(400, "The code is not right, or it was used before", WRONG_CODE);

const ISSUER = "UCSI Wallet";
const PERIOD = 30;
export const RECOVERY_CODE_COUNT = 10;

/** Crockford's base32: no I, L, O or U, so a code read aloud or copied by hand survives. */
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const RECOVERY_CODE_LENGTH = 16; // 80 random bits

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpOf(secret: string, label = "") {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(secret),
  });
}

/** The `otpauth://` address an authenticator app reads from the QR code. */
export function totpUri(secret: string, email: string): string {
  return totpOf(secret, email).toString();
}

/** The code an authenticator app shows for `secret` at `timestamp` (tests and the demo). */
export function totpCode(secret: string, timestamp = Date.now()): string {
  return totpOf(secret).generate({ timestamp });
}

/** A TOTP code as typed: six digits, blanks allowed between them. */
export function totpCodeOf(input: string): string {
  const code = input.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(code)) {
    throw new HttpError(400, "A code from an authenticator app is 6 digits", "TOTP_CODE_FORMAT");
  }
  return code;
}

/**
 * A recovery code as typed, in its one canonical form: any case, blanks and dashes anywhere, and
 * the letters Crockford's base32 reads as digits (O as 0, I and L as 1).
 */
export function recoveryCodeOf(input: string): string {
  const code = input
    .toUpperCase()
    .replace(/[\s-]+/g, "")
    .replace(/O/g, "0")
    .replace(/[IL]/g, "1");
  if (code.length !== RECOVERY_CODE_LENGTH || [...code].some((c) => !CROCKFORD.includes(c))) {
    throw new HttpError(
      400,
      "A recovery code is 16 letters and digits, as XXXX-XXXX-XXXX-XXXX",
      "RECOVERY_CODE_FORMAT",
    );
  }
  return code;
}

const digestOf = (code: string) => createHash("sha256").update(code).digest("hex");

/** Ten new recovery codes for `adminId`, replacing the old ones; shown once, kept as digests. */
export async function newRecoveryCodes(db: DbOrTx, adminId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    [...randomBytes(RECOVERY_CODE_LENGTH)].map((byte) => CROCKFORD[byte & 31]).join(""),
  );
  await db.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, adminId));
  await db
    .insert(adminRecoveryCodes)
    .values(codes.map((code) => ({ adminId, digest: digestOf(code) })));
  return codes.map((code) => code.match(/.{4}/g)!.join("-"));
}

/**
 * The second factors `adminId` has: their passkeys, the authenticator app once confirmed, how
 * many recovery codes are left, and so the methods they can prove who they are with.
 */
export async function factorsOf(db: DbOrTx, adminId: number) {
  const [totp] = await db
    .select({ since: adminTotp.confirmedAt })
    .from(adminTotp)
    .where(and(eq(adminTotp.adminId, adminId), isNotNull(adminTotp.confirmedAt)));
  const passkeys = await db
    .select({
      id: adminPasskeys.id,
      name: adminPasskeys.name,
      createdAt: adminPasskeys.createdAt,
      lastUsedAt: adminPasskeys.lastUsedAt,
      synced: adminPasskeys.synced,
    })
    .from(adminPasskeys)
    .where(eq(adminPasskeys.adminId, adminId))
    .orderBy(adminPasskeys.id);
  const [codes] = await db
    .select({ left: sql<number>`count(*)::int` })
    .from(adminRecoveryCodes)
    .where(and(eq(adminRecoveryCodes.adminId, adminId), isNull(adminRecoveryCodes.usedAt)));
  const totpSince = totp?.since ?? null;
  const recoveryCodesLeft = codes?.left ?? 0;
  const methods: SecondFactorMethod[] = [];
  if (passkeys.length > 0) methods.push("passkey");
  if (totpSince) methods.push("totp");
  if (methods.length > 0 && recoveryCodesLeft > 0) methods.push("recovery-code");
  return { totpSince, passkeys, recoveryCodesLeft, methods };
}

/**
 * Whether the administrator `adminId` (an id, or each row of the administrators table in a query
 * of it) has a second factor: a passkey or a confirmed authenticator app. The one definition of
 * "has a second factor". Columns are written qualified: drizzle leaves them bare in a select
 * list, where `id` would be the passkey's own.
 */
export function secondFactorExists(adminId: number | typeof administrators) {
  const ref = typeof adminId === "number" ? sql`${adminId}` : sql`${adminId}."id"`;
  return sql<boolean>`(
  exists (select 1 from ${adminPasskeys} pk where pk."admin_id" = ${ref})
  or exists (select 1 from ${adminTotp} app
    where app."admin_id" = ${ref} and app."confirmed_at" is not null))`;
}

/** Removes every second factor of `adminId`: passkeys, the app and the recovery codes. */
export async function removeSecondFactors(db: DbOrTx, adminId: number): Promise<void> {
  await db.delete(adminPasskeys).where(eq(adminPasskeys.adminId, adminId));
  await db.delete(adminTotp).where(eq(adminTotp.adminId, adminId));
  await db.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, adminId));
}

export async function hasSecondFactor(db: DbOrTx, adminId: number): Promise<boolean> {
  const { rows } = await db.execute<{ has: boolean }>(
    sql`select ${secondFactorExists(adminId)} as has`,
  );
  return rows[0]?.has === true;
}

/**
 * Checks `input` as a second factor of `adminId` and uses it up: a TOTP code's step can never be
 * used again, nor can a recovery code. Throws 400 for a code of the wrong form; false for a
 * wrong, replayed or used code.
 */
export async function proveCode(
  db: DbOrTx,
  secrets: SecretBox,
  adminId: number,
  method: CodeMethod,
  input: string,
): Promise<boolean> {
  if (method === "recovery-code") {
    const used = await db
      .update(adminRecoveryCodes)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(adminRecoveryCodes.adminId, adminId),
          eq(adminRecoveryCodes.digest, digestOf(recoveryCodeOf(input))),
          isNull(adminRecoveryCodes.usedAt),
        ),
      )
      .returning({ id: adminRecoveryCodes.id });
    return used.length > 0;
  }
  const code = totpCodeOf(input);
  const [row] = await db
    .select({ secret: adminTotp.secret })
    .from(adminTotp)
    .where(and(eq(adminTotp.adminId, adminId), isNotNull(adminTotp.confirmedAt)));
  if (!row) return false;
  const step = stepOf(secrets.open(row.secret, totpContext(adminId)), code);
  if (step === null) return false;
  return claimStep(db, adminId, step);
}

/** The time step `code` belongs to, within one step of now; null when it is none of them. */
export function stepOf(secret: string, code: string, now = Date.now()): number | null {
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD) + delta;
}

/** Marks `step` used, unless it or a later one already was (a replayed code): whether it did. */
export async function claimStep(db: DbOrTx, adminId: number, step: number): Promise<boolean> {
  const claimed = await db
    .update(adminTotp)
    .set({ lastStep: step })
    .where(
      and(
        eq(adminTotp.adminId, adminId),
        or(isNull(adminTotp.lastStep), lt(adminTotp.lastStep, step)),
      ),
    )
    .returning({ adminId: adminTotp.adminId });
  return claimed.length > 0;
}
