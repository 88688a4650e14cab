/**
 * Issue 30, item 5: a token signed with the real key but carrying claims of a shape the server
 * never issues (a NUL byte in its jti, a subject that is no id, a version that is no integer, a
 * claim missing) is an invalid credential, refused with 401 before any query, and the server
 * stays healthy. Its three parts are strict base64url: a padded or re-alphabeted signature, which
 * a lenient decoder reads as the same bytes, is refused too. Console and wallet app tokens alike.
 */
import { decodeJwt, SignJWT, type JWTPayload } from "jose";
import { beforeAll, describe, expect, it } from "vitest";

import { TOKEN_MESSAGES } from "../../server/auth/tokens";
import { useSignedInApp, walletAppToken } from "./support/app";
import { testEnv } from "./support/database";

const suite = useSignedInApp();
const SECRET = new TextEncoder().encode(testEnv("/unused").JWT_SECRET);

/** Each kind of token, with the route that takes it. */
const KINDS = {
  console: { url: "/v1/api/account/admin", token: () => suite.token },
  wallet: { url: "/v1/api/app/me", token: () => walletToken },
} as const;
type Kind = keyof typeof KINDS;
let walletToken = "";

beforeAll(async () => {
  walletToken = await walletAppToken(suite.testDb);
});

const call = (kind: Kind, token: string) =>
  suite.app.inject({ url: KINDS[kind].url, headers: { authorization: `Bearer ${token}` } });

/** A token signed with the server's own key: a real one's claims with `changes` over them. */
function forge(kind: Kind, changes: Record<string, unknown>): Promise<string> {
  const claims: Record<string, unknown> = { ...decodeJwt(KINDS[kind].token()), ...changes };
  for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
  return new SignJWT(claims as JWTPayload)
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .sign(SECRET);
}

async function expectInvalid(kind: Kind, token: string, what: string) {
  const response = await call(kind, token);
  expect(response.statusCode, `${kind} ${what}: ${response.body}`).toBe(401);
  expect(response.json(), `${kind} ${what}`).toEqual({ message: TOKEN_MESSAGES.invalid });
}

async function expectStillServed(kind: Kind) {
  const response = await call(kind, KINDS[kind].token());
  expect(response.statusCode, `${kind}: ${response.body}`).toBe(200);
}

/** Claims a signed token may carry but the server never issues, by what is wrong with them. */
const HOSTILE_CLAIMS: Record<string, Record<string, unknown>> = {
  "a NUL byte in the jti": { jti: "a\u0000b" },
  "a NUL byte in a jti of the right length": { jti: "\u0000".repeat(36) },
  "a jti that is no UUID": { jti: "forged-1" },
  "an upper-case UUID as jti": { jti: "0F8FAD5B-D9CB-469F-A165-70867728950E" },
  "an empty jti": { jti: "" },
  "a numeric jti": { jti: 12 },
  "a huge jti": { jti: "a".repeat(100_000) },
  "a numeric sub": { sub: 1 },
  "a sub that is no number": { sub: "admin" },
  "a negative sub": { sub: "-1" },
  "a zero sub": { sub: "0" },
  "a huge sub": { sub: "9".repeat(30) },
  "a fractional sub": { sub: "1.5" },
  "a version as a string": { ver: "0" },
  "a fractional version": { ver: 0.5 },
  "a negative version": { ver: -1 },
  "a huge version": { ver: 2 ** 60 },
  "an audience list": { aud: ["ucsi-wallet-back-office", "ucsi-wallet-app"] },
  "an iat as a string": { iat: "0" },
  "an exp far beyond the safe integers": { exp: 1e300 },
  "no sub": { sub: undefined },
  "no jti": { jti: undefined },
  "no ver": { ver: undefined },
  "no iat": { iat: undefined },
  "no exp": { exp: undefined },
  "no aud": { aud: undefined },
};

describe.each(Object.keys(KINDS) as Kind[])("a %s token", (kind) => {
  it("as issued is accepted", async () => {
    await expectStillServed(kind);
    // The forge itself is sound: a copy of a real token's claims is one too.
    expect((await call(kind, await forge(kind, {}))).statusCode).toBe(200);
  });

  it.each(Object.entries(HOSTILE_CLAIMS))(
    "with %s is refused with 401, and the server stays healthy",
    async (what, changes) => {
      await expectInvalid(kind, await forge(kind, changes), what);
      await expectStillServed(kind);
    },
  );

  it("with a padded or re-alphabeted signature is refused with 401", async () => {
    const [header, payload, signature] = KINDS[kind].token().split(".") as [string, string, string];
    const variants = {
      "= appended to the signature": `${header}.${payload}.${signature}=`,
      "== appended to the signature": `${header}.${payload}.${signature}==`,
      "= appended to the payload": `${header}.${payload}=.${signature}`,
      "+ prepended to the signature": `${header}.${payload}.+${signature}`,
      "/ in place of the signature's last character": `${header}.${payload}.${signature.slice(0, -1)}/`,
      "whitespace inside the signature": `${header}.${payload}.${signature.slice(0, 5)} ${signature.slice(5)}`,
    };
    for (const [what, token] of Object.entries(variants)) await expectInvalid(kind, token, what);
    await expectStillServed(kind);
  });

  it("whose signature a lenient decoder reads alike in standard base64 is refused", async () => {
    const token = await forgeWithUrlSafeSignature(kind);
    expect((await call(kind, token)).statusCode).toBe(200);
    const [header, payload, signature] = token.split(".") as [string, string, string];
    await expectInvalid(kind, `${header}.${payload}.${standardBase64(signature)}`, "+ or /");
  });
});

/** Base64url's two own characters in standard base64's spelling: the same bytes, leniently read. */
const standardBase64 = (part: string) => part.replaceAll("-", "+").replaceAll("_", "/");

/**
 * A valid token whose signature holds `-` or `_` (most do), so that its standard-base64 spelling
 * differs from it: the claims vary by their issue time (the session, named by the jti, stays the
 * same) until one does.
 */
async function forgeWithUrlSafeSignature(kind: Kind): Promise<string> {
  const { iat } = decodeJwt(KINDS[kind].token());
  for (let earlier = 1; ; earlier++) {
    const token = await forge(kind, { iat: iat! - earlier });
    if (/[-_]/.test(token.split(".")[2]!)) return token;
  }
}
