/**
 * The key that signs chain verifications and exports (docs/integrity.md): Ed25519 from
 * INTEGRITY_SIGNING_KEY (server/config.ts). An auditor fetches the public key once
 * (GET /api/integrity/public-key) and checks exports offline with scripts/verify-export.mjs.
 */
import { createHash, createPublicKey, sign, type KeyObject } from "node:crypto";

import { signingKeyOf } from "../config";

export interface Signer {
  /** Ed25519 signature of `data`, base64. */
  sign(data: Buffer): string;
  /** The public key, SPKI PEM. */
  publicKeyPem: string;
  /** The first 16 hex digits of SHA-256 of the public key's SPKI DER: which key signed. */
  keyId: string;
}

const signers = new Map<string, Signer>();

/** The signer of a configured key (made once per key). */
export function signerOf(key: string): Signer {
  let signer = signers.get(key);
  if (!signer) {
    const privateKey: KeyObject = signingKeyOf(key);
    const publicKey = createPublicKey(privateKey);
    const der = publicKey.export({ type: "spki", format: "der" });
    signer = {
      sign: (data) => sign(null, data, privateKey).toString("base64"),
      publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
      keyId: createHash("sha256").update(der).digest("hex").slice(0, 16),
    };
    signers.set(key, signer);
  }
  return signer;
}
