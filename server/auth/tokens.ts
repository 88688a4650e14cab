import { randomUUID } from "node:crypto";

import { errors, jwtVerify, SignJWT, type CryptoKey, type JWTPayload } from "jose";

import { HttpError } from "../errors";

/** The exact token messages of the contract (docs/api.md); the console reacts to each. */
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
  /** A token and the claims it carries (a staff session is kept by its jti). */
  issue(
    subject: number,
    credentialVersion: number,
  ): Promise<{ token: string; claims: TokenClaims }>;
  /** The claims of a valid token; throws the contract's 401 otherwise. */
  verify(token: string): Promise<TokenClaims>;
}

/** A subject is an id written plainly: "1e0", " 1" or "0x1" are not ids. */
const SUBJECT = /^[1-9][0-9]{0,9}$/;
const MAX_ID = 2_147_483_647;
/** The jti `sign` gives every token: a lower-case random (version 4) UUID. */
const JTI = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/**
 * A compact JWS in strict base64url: three parts of its alphabet, unpadded. jose decodes leniently
 * (a signature with `=` appended verified), so a token is held to this before jose reads it.
 */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** Verified tokens remembered (until they expire) so that each is checked by HMAC once. */
const VERIFIED_CACHE_SIZE = 10_000;

const invalidToken = () => new HttpError(401, TOKEN_MESSAGES.invalid);

const isIntegerIn = (value: unknown, min: number, max: number): value is number =>
  Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;

/** A payload as `sign` writes it. */
type IssuedPayload = JWTPayload & { sub: string; ver: number; jti: string; exp: number };

/**
 * Whether each claim has exactly the shape `sign` gives it: a token signed with the real key may
 * still carry anything (a NUL byte in its jti made the revocation lookup fail with a 500), and
 * its claims reach queries.
 */
function isIssuedPayload(payload: JWTPayload, audience: Audience): payload is IssuedPayload {
  const { sub, ver, jti, aud, iat, exp } = payload;
  return (
    typeof sub === "string" &&
    SUBJECT.test(sub) &&
    Number(sub) <= MAX_ID &&
    isIntegerIn(ver, 0, MAX_ID) &&
    typeof jti === "string" &&
    JTI.test(jti) &&
    aud === audience &&
    Number.isSafeInteger(iat) &&
    Number.isSafeInteger(exp)
  );
}

/** The payload of a token whose form and signature are sound and that has not expired; else 401. */
async function signedPayload(
  token: string,
  key: CryptoKey,
  audience: Audience,
): Promise<JWTPayload> {
  if (!COMPACT_JWS.test(token)) throw invalidToken();
  try {
    const options = { algorithms: ["HS256"], issuer: ISSUER, audience };
    return (await jwtVerify(token, key, options)).payload;
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw new HttpError(401, TOKEN_MESSAGES.expired);
    throw invalidToken();
  }
}

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
  async function issue(subject: number, credentialVersion: number) {
    const now = Math.floor(Date.now() / 1000);
    const claims: TokenClaims = {
      subject,
      version: credentialVersion,
      jti: randomUUID(),
      expiresAt: new Date((now + ttlSeconds) * 1000),
    };
    const token = await new SignJWT({ ver: credentialVersion })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(String(subject))
      .setJti(claims.jti)
      .setIssuer(ISSUER)
      .setAudience(audience)
      .setIssuedAt(now)
      .setExpirationTime(now + ttlSeconds)
      .sign(await key);
    return { token, claims };
  }
  return {
    issue,
    async sign(subject, credentialVersion) {
      return (await issue(subject, credentialVersion)).token;
    },
    async verify(token) {
      const known = verified.get(token);
      if (known && known.expiresAt.getTime() > Date.now()) return known;
      if (known) verified.delete(token);
      const payload = await signedPayload(token, await key, audience);
      if (!isIssuedPayload(payload, audience)) throw invalidToken();
      const claims: TokenClaims = {
        subject: Number(payload.sub),
        version: payload.ver,
        jti: payload.jti,
        expiresAt: new Date(payload.exp * 1000),
      };
      if (verified.size >= VERIFIED_CACHE_SIZE) verified.clear();
      verified.set(token, claims);
      return claims;
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
