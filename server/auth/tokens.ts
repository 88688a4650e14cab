import { randomUUID } from "node:crypto";

import { errors, jwtVerify, SignJWT } from "jose";

import { HttpError } from "../errors";

/** The exact token messages of the contract (api.md); the console reacts to each. */
export const TOKEN_MESSAGES = {
  missing: "Missing credential key",
  invalid: "Invalid credential key",
  expired: "JWT expired",
  unknownAdmin: "User not found",
  banned: "User banned from login",
} as const;

const ISSUER = "ucsi-wallet-reference-server";
/** Who a token is for: the console's administrators, or the wallet app's users. */
export const AUDIENCES = {
  backOffice: "ucsi-wallet-back-office",
  walletApp: "ucsi-wallet-app",
} as const;
export type Audience = (typeof AUDIENCES)[keyof typeof AUDIENCES];

/** What a valid token says. */
export interface TokenClaims {
  /** Whose token it is: an administrator's id, or a wallet user's on the wallet app's tokens. */
  subject: number;
  /** The subject's credential version when it was issued (see administrators and users). */
  version: number;
  /** Its JWT id: what a logout revokes. */
  jti: string;
  expiresAt: Date;
}

export interface TokenService {
  sign(subject: number, credentialVersion: number): Promise<string>;
  /** The claims of a valid token; throws the contract's 401 otherwise. */
  verify(token: string): Promise<TokenClaims>;
}

/** A subject is an id written plainly: "1e0", " 1" or "0x1" are not ids. */
const SUBJECT = /^[1-9][0-9]{0,9}$/;
const MAX_ID = 2_147_483_647;

/** Verified tokens remembered (until they expire) so that each is checked by HMAC once. */
const VERIFIED_CACHE_SIZE = 10_000;

/** Signs and verifies the tokens of one audience: a token of the other is refused as invalid. */
export function createTokenService(
  secret: string,
  ttlSeconds: number,
  audience: Audience = AUDIENCES.backOffice,
): TokenService {
  const verified = new Map<string, TokenClaims>();
  // Imported once: handing jose the raw bytes imports a WebCrypto key on every call, which
  // measured ~0.25 ms of each authenticated request.
  const key = crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
  return {
    async sign(subject, credentialVersion) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ ver: credentialVersion })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(String(subject))
        .setJti(randomUUID())
        .setIssuer(ISSUER)
        .setAudience(audience)
        .setIssuedAt(now)
        .setExpirationTime(now + ttlSeconds)
        .sign(await key);
    },
    async verify(token) {
      const known = verified.get(token);
      if (known && known.expiresAt.getTime() > Date.now()) return known;
      if (known) verified.delete(token);
      try {
        const { payload } = await jwtVerify(token, await key, {
          algorithms: ["HS256"],
          issuer: ISSUER,
          audience,
          requiredClaims: ["sub", "exp", "jti"],
        });
        const subject = payload.sub ?? "";
        const id = SUBJECT.test(subject) ? Number(subject) : NaN;
        const version = payload.ver;
        if (!(id <= MAX_ID) || !Number.isSafeInteger(version) || typeof payload.jti !== "string") {
          throw new HttpError(401, TOKEN_MESSAGES.invalid);
        }
        const claims: TokenClaims = {
          subject: id,
          version: version as number,
          jti: payload.jti,
          expiresAt: new Date((payload.exp ?? 0) * 1000),
        };
        if (verified.size >= VERIFIED_CACHE_SIZE) verified.clear();
        verified.set(token, claims);
        return claims;
      } catch (error) {
        if (error instanceof HttpError) throw error;
        if (error instanceof errors.JWTExpired) throw new HttpError(401, TOKEN_MESSAGES.expired);
        throw new HttpError(401, TOKEN_MESSAGES.invalid);
      }
    },
  };
}

/** The token in an Authorization header: the raw cookie value, or `Bearer <token>`. */
export function tokenFromHeader(header: string | undefined): string | undefined {
  const value = header?.trim();
  // "Bearer" with nothing after it carries no credential either.
  if (!value || /^Bearer$/i.test(value)) return undefined;
  const bearer = /^Bearer\s+(.+)$/i.exec(value);
  const token = (bearer ? bearer[1] : value)?.trim();
  return token ? token : undefined;
}
