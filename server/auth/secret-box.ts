/**
 * Secrets the server must read back (an authenticator app's TOTP secret) kept sealed in the
 * database: AES-256-GCM under a key from SECOND_FACTOR_KEY (server/config.ts), with the row they
 * belong to as associated data, so a sealed secret copied onto another administrator's row does
 * not open. A reader of the database alone (a backup, a replica, a leaked dump) cannot make
 * anyone's codes.
 *
 * Stored form: `v1:` + base64url(12-byte nonce ‖ 16-byte tag ‖ ciphertext). A value without the
 * prefix was kept before sealing existed and is read as it is; the next enrolment seals it.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

const VERSION = "v1:";
const NONCE = 12;
const TAG = 16;

export interface SecretBox {
  /** `plain` sealed for `context` (what it belongs to, e.g. `admin_totp:7`). */
  seal(plain: string, context: string): string;
  /** The plain secret; throws when the key or the context is not the one it was sealed with. */
  open(stored: string, context: string): string;
}

export function secretBox(key: string): SecretBox {
  // SECOND_FACTOR_KEY is text of at least 32 characters; its SHA-256 is the AES key.
  const aesKey = createHash("sha256").update(key, "utf8").digest();
  return {
    seal(plain, context) {
      const nonce = randomBytes(NONCE);
      const cipher = createCipheriv("aes-256-gcm", aesKey, nonce);
      cipher.setAAD(Buffer.from(context, "utf8"));
      const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return VERSION + Buffer.concat([nonce, cipher.getAuthTag(), sealed]).toString("base64url");
    },
    open(stored, context) {
      if (!stored.startsWith(VERSION)) return stored;
      const bytes = Buffer.from(stored.slice(VERSION.length), "base64url");
      const decipher = createDecipheriv("aes-256-gcm", aesKey, bytes.subarray(0, NONCE));
      decipher.setAAD(Buffer.from(context, "utf8"));
      decipher.setAuthTag(bytes.subarray(NONCE, NONCE + TAG));
      try {
        return Buffer.concat([
          decipher.update(bytes.subarray(NONCE + TAG)),
          decipher.final(),
        ]).toString("utf8");
      } catch {
        throw new Error(
          `SECOND_FACTOR_KEY does not open the secret of ${context}: is it the key every instance was started with?`,
        );
      }
    },
  };
}

/** The context an administrator's TOTP secret is sealed for. */
export const totpContext = (adminId: number) => `admin_totp:${adminId}`;
