/**
 * A software passkey for server tests: what a browser and its authenticator answer to the
 * server's challenges (WebAuthn's registration and authentication JSON), with a real P-256 key,
 * a real ES256 signature and a signature counter, for one site (its RP ID and page origin).
 */
import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";

import { isoCBOR } from "@simplewebauthn/server/helpers";

import type { PasskeyAssertion, PasskeyAttestation } from "../../../src/shared/schemas/auth";

const UP = 0x01; // user present
const UV = 0x04; // user verified
const AT = 0x40; // attested credential data follows

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();
const u32 = (n: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(n);
  return bytes;
};

export class SoftPasskey {
  readonly credentialId = randomBytes(16);
  private readonly keys = generateKeyPairSync("ec", { namedCurve: "P-256" });
  /** The signature counter; 0 stays 0 (an authenticator without one), else it counts up. */
  counter: number;

  constructor(
    readonly site: { rpId: string; origin: string },
    options: { counter?: number } = {},
  ) {
    this.counter = options.counter ?? 1;
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private clientData(type: string, challenge: string, origin = this.site.origin) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** The answer to `options` of POST /api/account/passkeys/challenge. */
  register(options: { challenge: string }, origin?: string): PasskeyAttestation {
    const jwk = this.keys.publicKey.export({ format: "jwk" });
    const coseKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, new Uint8Array(Buffer.from(jwk.x!, "base64url"))],
        [-3, new Uint8Array(Buffer.from(jwk.y!, "base64url"))],
      ]),
    );
    const length = Buffer.alloc(2);
    length.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      sha256(this.site.rpId),
      Buffer.from([UP | UV | AT]),
      u32(this.counter),
      Buffer.alloc(16), // AAGUID: none
      length,
      this.credentialId,
      coseKey,
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ["fmt", "none"],
        ["attStmt", new Map<string, string>()],
        ["authData", new Uint8Array(authData)],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(this.clientData("webauthn.create", options.challenge, origin)),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /** The answer to a sign-in or step-up challenge's `options`; moves the counter on. */
  answer(
    options: { challenge: string },
    { userVerified = true, origin }: { userVerified?: boolean; origin?: string } = {},
  ): PasskeyAssertion {
    if (this.counter > 0) this.counter += 1;
    const authData = Buffer.concat([
      sha256(this.site.rpId),
      Buffer.from([UP | (userVerified ? UV : 0)]),
      u32(this.counter),
    ]);
    const clientData = this.clientData("webauthn.get", options.challenge, origin);
    const signature = sign(
      "sha256",
      Buffer.concat([authData, sha256(clientData)]),
      this.keys.privateKey,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }
}
