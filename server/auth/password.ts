import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

import { brokenPasswordRules } from "../../src/shared/password-policy";
import { DEFAULT_PASSWORD_HASH_COST, MAX_PASSWORD_HASH_COST } from "../config";
import { HttpError } from "../errors";

/**
 * Passwords: scrypt (node:crypto) with N = 2^PASSWORD_HASH_COST (2^15 unless configured), r = 8,
 * p = 1, a 16-byte salt and a 32-byte key, stored self-describing as `scrypt$N$r$p$salt$hash`
 * (base64url): a stored hash is verified with the parameters it was made with, so the cost can be
 * raised at any time without breaking it.
 */
/** log2 of N for new hashes (and the decoy); set from the configuration at start. */
let cost = DEFAULT_PASSWORD_HASH_COST;
/** A hash of a random password at that cost, made on first need (verifyAgainstDecoy). */
let decoyHash: Promise<string> | undefined;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
/** scrypt needs 128 * N * r * p bytes (32 MiB at the default cost), above Node's default maxmem. */
const maxmemFor = (n: number, r: number, p: number) => 128 * n * r * p + 16 * 1024 * 1024;
/** Refuse stored parameters that would make verification a denial of service. */
const MAX_N = 2 ** MAX_PASSWORD_HASH_COST;

/**
 * The cost of new hashes from the configuration (PASSWORD_HASH_COST, server/config.ts, which
 * holds production to at least the default). Called where a process starts hashing: the app and
 * the seed.
 */
export function configurePasswordHashing(options: { cost: number }): void {
  if (options.cost === cost) return;
  cost = options.cost;
  // The decoy costs what a real verification costs.
  decoyHash = undefined;
}

/**
 * Hashes run at most this many at a time (one per core of the machine this was sized on): a
 * burst of logins queues instead of taking every libuv thread and all memory (32 MiB each), so
 * the rest of the server, and the login that is next in line, keep moving.
 */
const HASH_CONCURRENCY = 2;
let hashing = 0;
const waiting: Array<() => void> = [];

async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (hashing >= HASH_CONCURRENCY) await new Promise<void>((go) => waiting.push(go));
  else hashing += 1;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else hashing -= 1;
  }
}

function derive(password: string, salt: Buffer, n: number, r: number, p: number, length: number) {
  return withHashSlot(() => deriveNow(password, salt, n, r, p, length));
}

function deriveNow(
  password: string,
  salt: Buffer,
  n: number,
  r: number,
  p: number,
  length: number,
) {
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(
      password.normalize("NFC"),
      salt,
      length,
      { N: n, r, p, maxmem: maxmemFor(n, r, p) },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const n = 2 ** cost;
  const key = await derive(password, salt, n, R, P, KEY_LENGTH);
  return ["scrypt", n, R, P, salt.toString("base64url"), key.toString("base64url")].join("$");
}

interface ParsedHash {
  n: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parseHash(stored: string): ParsedHash | undefined {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return undefined;
  const [n, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4] ?? "", "base64url");
  const key = Buffer.from(parts[5] ?? "", "base64url");
  const validCost = Number.isInteger(n) && n > 1 && n <= MAX_N && (n & (n - 1)) === 0;
  if (
    !validCost ||
    !Number.isInteger(r) ||
    r < 1 ||
    r > 32 ||
    !Number.isInteger(p) ||
    p < 1 ||
    p > 16
  ) {
    return undefined;
  }
  if (salt.length < 8 || key.length < 16) return undefined;
  return { n, r, p, salt, key };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const candidate = await derive(
    password,
    parsed.salt,
    parsed.n,
    parsed.r,
    parsed.p,
    parsed.key.length,
  );
  return timingSafeEqual(candidate, parsed.key);
}

/**
 * Spends the same time as a real verification, for logins with an unknown e-mail, so response
 * time does not reveal which e-mails exist. Always false.
 */
export async function verifyAgainstDecoy(password: string): Promise<false> {
  decoyHash ??= hashPassword(randomBytes(16).toString("hex"));
  await verifyPassword(password, await decoyHash);
  return false;
}

/** 400 WEAK_PASSWORD naming the rules a new password breaks (src/shared/password-policy.ts). */
export function assertStrongPassword(password: string): void {
  const rules = brokenPasswordRules(password);
  if (rules.length > 0) {
    throw new HttpError(
      400,
      `Password is too weak: it breaks the rules ${rules.join(", ")}`,
      "WEAK_PASSWORD",
      { rules },
    );
  }
}
