import { createPrivateKey, randomBytes, type KeyObject } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { join, resolve } from "node:path";

import { PERMISSION, PERMISSION_CODES } from "../src/shared/permissions";

/**
 * The server's configuration, read once from the environment. Every variable is documented here
 * with its default; `loadConfig` is the only place that reads `process.env`.
 */
export interface Config {
  /** PORT (8080): the HTTP port. */
  port: number;
  /** HOST (0.0.0.0): the interface to listen on. */
  host: string;
  /** DATA_DIR (./data): embedded database, JWT secret file, uploaded documents. Absolute. */
  dataDir: string;
  /** DATABASE_URL (unset → embedded PGlite in DATA_DIR): a PostgreSQL connection string. */
  databaseUrl: string | undefined;
  /**
   * DATABASE_POOL_MAX (10): connections to DATABASE_URL. Lower it when PostgreSQL shares a small
   * machine with the server (bench/users-scale.ts measured 4 best on 2 cores). The embedded store
   * always uses one.
   */
  databasePoolMax: number;
  /**
   * STATEMENT_TIMEOUT_MS (20000): PostgreSQL cancels a request's statement after this long and
   * the API answers 503 QUERY_TIMEOUT. The embedded store has no such limit.
   */
  statementTimeoutMs: number;
  /**
   * JWT_SECRET: HS256 key. Required when NODE_ENV=production; otherwise generated once and kept in
   * DATA_DIR/jwt-secret (mode 0600) so sessions survive restarts.
   */
  jwtSecret: string;
  /** JWT_SECRET is unset: the secret is this DATA_DIR's own, and no other instance shares it. */
  jwtSecretIsLocal: boolean;
  /**
   * SECOND_FACTOR_KEY: the key authenticator-app secrets are sealed with in the database
   * (server/auth/secret-box.ts), at least 32 characters. Required when NODE_ENV=production;
   * otherwise generated once into DATA_DIR/second-factor-key (mode 0600).
   */
  secondFactorKey: string;
  /** SECOND_FACTOR_KEY is unset: the key is this DATA_DIR's own. */
  secondFactorKeyIsLocal: boolean;
  /**
   * INTEGRITY_SIGNING_KEY: the Ed25519 private key that signs chain verifications and exports
   * (docs/integrity.md), as PKCS#8 PEM or a base64 32-byte seed. Required when
   * NODE_ENV=production; otherwise generated once into DATA_DIR/integrity-signing-key (mode 0600).
   */
  integritySigningKey: string;
  /** INTEGRITY_SIGNING_KEY is unset: the key is this DATA_DIR's own. */
  integritySigningKeyIsLocal: boolean;
  /** JWT_TTL ("12h"): token lifetime, in seconds ("3600") or a duration ("2s", "30m", "12h", "7d"). */
  jwtTtlSeconds: number;
  /**
   * SESSION_IDLE_MINUTES (15): a staff session unused this long ends. STEP_UP_MINUTES (5): how
   * recent a proof of who they are a sensitive action needs (server/auth/sessions.ts).
   */
  sessions: { idleMinutes: number; stepUpMinutes: number };
  /**
   * PASSWORD_HASH_COST (15): scrypt's cost for new password hashes, as a power of two (N = 2^15,
   * ~90 ms of one core and 32 MiB; each step up doubles both). A stored hash keeps the cost it was
   * made with, so raising it is safe at any time. At least 15 when NODE_ENV=production, at most
   * 20; outside production it may go down to 10, which the tests use (a hash in ~3 ms).
   */
  passwordHashCost: number;
  /** ADMIN_DORMANT_DAYS (90): an administrator who has not signed in for this long is disabled. */
  adminDormantDays: number;
  /** CORS_ORIGIN (unset → same origin only): allowed browser origins, comma-separated. */
  corsOrigins: string[];
  /**
   * TRUST_PROXY (unset → false): which proxies' X-Forwarded-For to believe for the client's
   * address (rate limits, the audit trail): the proxies' addresses and CIDR ranges, comma-separated
   * (`loopback`, `linklocal` and `uniquelocal` name the usual private ranges), or `true` for any
   * sender (only when nothing reaches the server but through the proxy). A hop count is refused:
   * Fastify cannot check the nearest peer with one and ignores the header.
   */
  trustProxy: boolean | string[];
  /** HOUSEKEEPING_INTERVAL ("15m"): how often expired rate-limit counters and revoked tokens go. */
  housekeepingIntervalSeconds: number;
  /**
   * How an instance stops on SIGTERM (docs/fleet.md): DRAIN_NOTICE_MS (2000 in production, else
   * 0) it stays up but unready, so the balancer's health check notices and sends nothing new;
   * then it refuses new requests (503 SERVER_DRAINING, retryable) and gives the requests in flight
   * DRAIN_TIMEOUT_MS (10000) to finish before it closes their connections.
   */
  drain: { noticeMs: number; timeoutMs: number };
  /** JOB_POLL_MS (1000): how often each instance looks for due jobs (notification deliveries). */
  jobPollMs: number;
  /**
   * JOB_LEASE ("30s"): how long an instance holds a job it claimed without finishing a step; a
   * crashed instance's delivery is taken over by another (or by itself restarted) after this.
   */
  jobLeaseSeconds: number;
  /** NOTIFICATION_BATCH_SIZE (5000): at most this many users per delivery step (one transaction). */
  notificationBatchSize: number;
  /**
   * NOTIFICATION_STEP_MS (25): how long a delivery step aims to take; its size follows the
   * database's pace, so a console request waiting behind a step waits about this long.
   */
  notificationStepMs: number;
  /** LOGIN_RATE_LIMIT (10): login attempts per minute per client IP and e-mail. */
  loginRateLimit: number;
  /** LOGIN_FAILURES_PER_ADDRESS (30): failed logins per client IP in any 60 s, any e-mail. */
  loginFailuresPerAddress: number;
  /**
   * LOGIN_LOCKOUT_FAILURES (10) failed logins of one account within LOGIN_LOCKOUT_MINUTES (30),
   * from any addresses, lock it for LOGIN_LOCKOUT_MINUTES (server/auth/account-lockout.ts).
   */
  loginLockout: { failures: number; minutes: number };
  /** SUPPORT_EMAIL (unset → the super administrator's e-mail): contact shown to banned admins. */
  supportEmail: string | undefined;
  /**
   * BUSINESS_TIMEZONE (Asia/Kuala_Lumpur): the campus's time zone. "Today", a date filter
   * `YYYY-MM-DD` and a daily limit mean days in this zone, not UTC days.
   */
  businessTimeZone: string;
  /**
   * INVOICE_FONT (unset → Debian's Noto Sans CJK, /usr/share/fonts/opentype/noto, when installed):
   * the font of invoice PDFs, a TrueType/OpenType file, or a collection (.ttc) with the face's
   * PostScript name after `#`. It must hold Chinese glyphs for Chinese invoices and names;
   * without one, PDFs use Helvetica and are written in English, other characters as `?`.
   */
  invoiceFont: { path: string; face?: string } | undefined;
  /** DIST_DIR (unset → the repository's dist/): the built console the server serves. */
  distDir: string | undefined;
  /** LOG_LEVEL ("info"; "silent" disables logging): Fastify/pino log level. */
  logLevel: string;
  /** NODE_ENV ("development"). */
  nodeEnv: string;
  /** Demo administrators, seeded outside production. DEMO_*_PASSWORD override their passwords. */
  demoAccounts: DemoAccount[];
  /** ADMIN_EMAIL / ADMIN_PASSWORD: the first super administrator in production (no admin yet). */
  bootstrapAdmin: { email: string; password: string } | undefined;
  /**
   * RECAPTCHA_SECRET (unset → the report's captcha is not checked): reCAPTCHA secret key. Required
   * when NODE_ENV=production unless RECAPTCHA_DISABLED=true; that flag also ignores a set secret.
   */
  recaptchaSecret: string | undefined;
  /** RECAPTCHA_VERIFY_URL (Google's siteverify): where captcha tokens are verified. */
  recaptchaVerifyUrl: string;
  /** SMTP_URL (unset → .eml files in DATA_DIR/outbox): e.g. smtp://user:pass@host:587. */
  smtpUrl: string | undefined;
  /** MAIL_FROM ("UCSI Wallet <no-reply@wallet.example>"): sender of the calculator report. */
  mailFrom: string;
  /**
   * PUBLIC_URL: the site's public address, used in links the server e-mails (password reset
   * links). Required in production; elsewhere `http://localhost:PORT`. Never the request's Host,
   * which a client can forge.
   */
  publicUrl: string;
  /**
   * Passkeys (WebAuthn): WEBAUTHN_RP_ID (PUBLIC_URL's host name), the domain passkeys are bound
   * to; WEBAUTHN_ORIGINS (PUBLIC_URL's origin, and the Vite dev server's on localhost outside
   * production),
   * the pages allowed to use them (comma-separated).
   */
  passkeys: { rpId: string; origins: string[] };
  /** REPORT_RATE_LIMIT_PER_IP (10): calculator reports per hour per client IP. */
  reportRateLimitPerIp: number;
  /** REPORT_RATE_LIMIT_PER_EMAIL (3): calculator reports per hour per recipient address. */
  reportRateLimitPerEmail: number;
  /** PASSWORD_RESET_RATE_LIMIT_PER_IP (30): reset-link checks and uses per hour per client IP. */
  passwordResetRateLimitPerIp: number;
}

export type DemoRole =
  | "super administrator"
  | "user desk"
  | "finance"
  | "banned administrator"
  | "second super administrator"
  | "finance checker"
  | "two-step administrator";

export interface DemoAccount {
  role: DemoRole;
  name: string;
  email: string;
  password: string;
  permissions: number[];
  isSuperAdmin: boolean;
  status: "active" | "banned";
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

const DURATION =
  /^(\d+)\s*(s|sec|secs|second|seconds|m|min|mins|minute|minutes|h|hr|hrs|hour|hours|d|day|days|w|week|weeks)?$/i;
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** "3600" → 3600, "2s" → 2, "12h" → 43200; anything else is a configuration error. */
export function parseDuration(value: string, name = "JWT_TTL"): number {
  const match = DURATION.exec(value.trim());
  if (!match) {
    throw new ConfigError(`${name} must be seconds or a duration such as "30m", "12h", "7d"`);
  }
  const amount = Number(match[1]);
  const unit = (match[2] ?? "s").toLowerCase();
  const seconds = amount * (UNIT_SECONDS[unit[0] ?? "s"] ?? 1);
  if (!Number.isSafeInteger(seconds) || seconds < 1) {
    throw new ConfigError(`${name} must be at least one second`);
  }
  return seconds;
}

function positiveInt(env: Env, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER) {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new ConfigError(`${name} must be an integer between 1 and ${max}, got "${raw}"`);
  }
  return value;
}

/** scrypt's cost (log2 of N) for new password hashes, and the most a stored hash may ask. */
export const DEFAULT_PASSWORD_HASH_COST = 15;
export const MAX_PASSWORD_HASH_COST = 20;

/** PASSWORD_HASH_COST: never below the default in production (server/auth/password.ts). */
function passwordHashCost(env: Env, production: boolean): number {
  const raw = env.PASSWORD_HASH_COST?.trim();
  if (!raw) return DEFAULT_PASSWORD_HASH_COST;
  const min = production ? DEFAULT_PASSWORD_HASH_COST : 10;
  const value = /^\d{1,2}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= MAX_PASSWORD_HASH_COST)) {
    throw new ConfigError(
      `PASSWORD_HASH_COST must be an integer between ${min} and ${MAX_PASSWORD_HASH_COST}${production ? " in production" : ""}, got "${raw}"`,
    );
  }
  return value;
}

/** As positiveInt, where 0 is allowed too (a wait that may be none). */
function wholeNumber(env: Env, name: string, fallback: number, max: number) {
  const raw = env[name]?.trim();
  if (raw === "0") return 0;
  return raw ? positiveInt(env, name, fallback, max) : fallback;
}

export const DEFAULT_BUSINESS_TIMEZONE = "Asia/Kuala_Lumpur";

/** An IANA time zone name (`Asia/Kuala_Lumpur`), checked against the runtime's zone data. */
function timeZone(env: Env, name: string, fallback: string): string {
  const zone = nonEmpty(env, name) ?? fallback;
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(zone)) {
    throw new ConfigError(`${name} must be an IANA time zone such as ${fallback}`);
  }
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
  } catch {
    throw new ConfigError(`${name} must be an IANA time zone such as ${fallback}, not ${zone}`);
  }
  return zone;
}

function nonEmpty(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function flag(env: Env, name: string): boolean {
  const raw = nonEmpty(env, name)?.toLowerCase();
  if (raw === undefined || raw === "false" || raw === "0") return false;
  if (raw === "true" || raw === "1") return true;
  throw new ConfigError(`${name} must be "true" or "false", got "${raw}"`);
}

/** A URL with one of `protocols` (e.g. ["smtp:", "smtps:"]), or a ConfigError naming the variable. */
function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(raw);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !protocols.includes(parsed.protocol)) {
    // The value is not echoed: an SMTP URL carries a password.
    throw new ConfigError(`${name} must be a ${protocols.join(" or ")} URL`);
  }
  return raw;
}

/** The Vite dev server (`npm run dev:web`), whose pages use passkeys outside production. */
const DEV_WEB_ORIGIN = "http://localhost:5173";

function passkeys(env: Env, publicUrl: string, production: boolean): Config["passkeys"] {
  const rpId = (nonEmpty(env, "WEBAUTHN_RP_ID") ?? new URL(publicUrl).hostname).toLowerCase();
  const listed = (env.WEBAUTHN_ORIGINS ?? "")
    .split(",")
    .map((origin) => origin.trim())
    .filter((origin) => origin.length > 0);
  const origins = listed.length > 0 ? listed : [new URL(publicUrl).origin];
  if (listed.length === 0 && !production && rpId === "localhost") origins.push(DEV_WEB_ORIGIN);
  for (const origin of origins) {
    let host: string;
    try {
      const parsed = new URL(origin);
      if (parsed.origin !== origin) throw new Error("not an origin");
      host = parsed.hostname;
    } catch {
      throw new ConfigError(`WEBAUTHN_ORIGINS: ${JSON.stringify(origin)} is not an origin`);
    }
    // A browser uses a passkey only on its RP ID's domain or a subdomain of it.
    if (host !== rpId && !host.endsWith(`.${rpId}`)) {
      throw new ConfigError(`WEBAUTHN_RP_ID ${rpId} is not the domain of ${origin}`);
    }
  }
  return { rpId, origins };
}

const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = "", bits, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const width = Number(bits);
  return /^\d{1,3}$/.test(bits) && width <= (family === 4 ? 32 : 128);
}

/** TRUST_PROXY: false, true, or a list of proxy addresses and ranges. */
function trustProxy(env: Env): Config["trustProxy"] {
  const raw = nonEmpty(env, "TRUST_PROXY");
  if (raw === undefined || raw.toLowerCase() === "false") return false;
  if (raw.toLowerCase() === "true") return true;
  const entries = raw.split(",").map((entry) => entry.trim());
  const wrong = entries.find((entry) => !isProxyAddress(entry));
  if (wrong !== undefined) {
    throw new ConfigError(
      `TRUST_PROXY must be true, false, or the proxies' addresses and CIDR ranges separated by commas; "${wrong}" is none of these`,
    );
  }
  return entries;
}

export const DEFAULT_RECAPTCHA_VERIFY_URL = "https://www.google.com/recaptcha/api/siteverify";
export const DEFAULT_MAIL_FROM = "UCSI Wallet <no-reply@wallet.example>";

/** The captcha secret in force, or undefined when the report's captcha is not checked. */
function recaptchaSecret(env: Env, production: boolean): string | undefined {
  if (flag(env, "RECAPTCHA_DISABLED")) return undefined;
  const secret = nonEmpty(env, "RECAPTCHA_SECRET");
  if (production && !secret) {
    // A public form that sends e-mail must not run unprotected by accident.
    throw new ConfigError(
      "RECAPTCHA_SECRET is required when NODE_ENV=production (set RECAPTCHA_DISABLED=true to run without a captcha)",
    );
  }
  return secret;
}

/**
 * Reads DATA_DIR/`name`, creating it (mode 0600) on first use with `make()`, or again when what it
 * holds is not `usable`: the local defaults of the secrets that production must be given.
 */
function persistentFile(
  dataDir: string,
  name: string,
  usable: (value: string) => boolean,
  make: () => string,
): string {
  const file = join(dataDir, name);
  mkdirSync(dataDir, { recursive: true });
  try {
    const existing = readFileSync(file, "utf8").trim();
    if (usable(existing)) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const value = make();
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return value;
}

/** DATA_DIR/`name` as a secret of 48 random bytes (JWT_SECRET, SECOND_FACTOR_KEY). */
const persistentSecret = (dataDir: string, name: string) =>
  persistentFile(
    dataDir,
    name,
    (value) => value.length >= 32,
    () => randomBytes(48).toString("base64url"),
  );

/** Whether `value` is an Ed25519 private key as INTEGRITY_SIGNING_KEY takes it. */
function isSigningKey(value: string): boolean {
  try {
    return signingKeyOf(value).asymmetricKeyType === "ed25519";
  } catch {
    return false;
  }
}

/** INTEGRITY_SIGNING_KEY's Ed25519 private key: PKCS#8 PEM, or a base64 (or base64url) seed. */
export function signingKeyOf(value: string): KeyObject {
  if (value.includes("-----BEGIN")) return createPrivateKey(value);
  const seed = Buffer.from(value.replaceAll("-", "+").replaceAll("_", "/"), "base64");
  if (seed.length !== 32) throw new Error("An Ed25519 seed is 32 bytes");
  const pkcs8 = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]);
  return createPrivateKey({ key: pkcs8, format: "der", type: "pkcs8" });
}

/** DATA_DIR/`name` as an Ed25519 key's random 32-byte seed (INTEGRITY_SIGNING_KEY). */
const persistentSeed = (dataDir: string, name: string) =>
  persistentFile(dataDir, name, isSigningKey, () => randomBytes(32).toString("base64"));

/**
 * The demo logins. Each is `<login>@wallet.example`, named after its role, with the password
 * DEMO_<LOGIN>_PASSWORD when that is set and its default otherwise.
 */
export function demoAccounts(env: Env): DemoAccount[] {
  const logins: [DemoRole, string, string, number[], DemoAccount["status"]?][] = [
    ["super administrator", "superadmin", "SuperAdmin#2026", [...PERMISSION_CODES]],
    ["user desk", "userdesk", "UserDesk#2026", [PERMISSION.user]],
    [
      "finance",
      "finance",
      "Finance#2026",
      [PERMISSION.topUp, PERMISSION.settlement, PERMISSION.report],
    ],
    ["banned administrator", "banned", "Banned#2026", [PERMISSION.user], "banned"],
    // Four eyes: the second approver of the super administrator's changes, and of finance's.
    ["second super administrator", "approver", "Approver#2026", [...PERMISSION_CODES]],
    [
      "finance checker",
      "checker",
      "Checker#2026",
      [PERMISSION.topUp, PERMISSION.settlement, PERMISSION.report],
    ],
    // Signs in with an authenticator app too (its secret is printed at start).
    ["two-step administrator", "twostep", "TwoStep#2026", [PERMISSION.user, PERMISSION.statistic]],
  ];
  return logins.map(([role, login, password, permissions, status = "active"]) => ({
    role,
    name: role.replace(/\b[a-z]/g, (letter) => letter.toUpperCase()),
    email: `${login}@wallet.example`,
    password: nonEmpty(env, `DEMO_${login.toUpperCase()}_PASSWORD`) ?? password,
    permissions,
    isSuperAdmin: role.endsWith("super administrator"),
    status,
  }));
}

export function loadConfig(env: Env = process.env): Config {
  const nodeEnv = nonEmpty(env, "NODE_ENV") ?? "development";
  const production = nodeEnv === "production";
  const dataDir = resolve(nonEmpty(env, "DATA_DIR") ?? "./data");

  const explicitSecret = nonEmpty(env, "JWT_SECRET");
  if (production && !explicitSecret) {
    throw new ConfigError("JWT_SECRET is required when NODE_ENV=production");
  }
  if (explicitSecret && explicitSecret.length < 32) {
    throw new ConfigError("JWT_SECRET must be at least 32 characters long");
  }
  const secondFactorKey = nonEmpty(env, "SECOND_FACTOR_KEY");
  if (production && !secondFactorKey) {
    throw new ConfigError(
      "SECOND_FACTOR_KEY is required when NODE_ENV=production (it seals authenticator-app secrets)",
    );
  }
  if (secondFactorKey && secondFactorKey.length < 32) {
    throw new ConfigError("SECOND_FACTOR_KEY must be at least 32 characters long");
  }

  const adminEmail = nonEmpty(env, "ADMIN_EMAIL");
  const adminPassword = env.ADMIN_PASSWORD;
  if ((adminEmail === undefined) !== !adminPassword) {
    throw new ConfigError("ADMIN_EMAIL and ADMIN_PASSWORD must be set together");
  }

  const captchaSecret = recaptchaSecret(env, production);
  const port = positiveInt(env, "PORT", 8080, 65_535);
  const publicUrl = url(env, "PUBLIC_URL", ["https:", "http:"])?.replace(/\/+$/, "");
  if (production && !publicUrl) {
    throw new ConfigError(
      "PUBLIC_URL is required when NODE_ENV=production (the address e-mailed links point to)",
    );
  }
  const signingKey = nonEmpty(env, "INTEGRITY_SIGNING_KEY");
  if (production && !signingKey) {
    throw new ConfigError(
      "INTEGRITY_SIGNING_KEY is required when NODE_ENV=production (it signs the audit trail's exports)",
    );
  }
  if (signingKey && !isSigningKey(signingKey)) {
    throw new ConfigError(
      "INTEGRITY_SIGNING_KEY must be an Ed25519 private key: PKCS#8 PEM or a base64 32-byte seed",
    );
  }

  return {
    port,
    host: nonEmpty(env, "HOST") ?? "0.0.0.0",
    dataDir,
    databaseUrl: nonEmpty(env, "DATABASE_URL"),
    databasePoolMax: positiveInt(env, "DATABASE_POOL_MAX", 10, 1000),
    statementTimeoutMs: positiveInt(env, "STATEMENT_TIMEOUT_MS", 20_000, 3_600_000),
    jwtSecret: explicitSecret ?? persistentSecret(dataDir, "jwt-secret"),
    jwtSecretIsLocal: !explicitSecret,
    secondFactorKey: secondFactorKey ?? persistentSecret(dataDir, "second-factor-key"),
    secondFactorKeyIsLocal: !secondFactorKey,
    integritySigningKey: signingKey ?? persistentSeed(dataDir, "integrity-signing-key"),
    integritySigningKeyIsLocal: !signingKey,
    jwtTtlSeconds: parseDuration(nonEmpty(env, "JWT_TTL") ?? "12h"),
    sessions: {
      idleMinutes: positiveInt(env, "SESSION_IDLE_MINUTES", 15, 24 * 60),
      stepUpMinutes: positiveInt(env, "STEP_UP_MINUTES", 5, 24 * 60),
    },
    passwordHashCost: passwordHashCost(env, production),
    adminDormantDays: positiveInt(env, "ADMIN_DORMANT_DAYS", 90, 3650),
    corsOrigins: (env.CORS_ORIGIN ?? "")
      .split(",")
      .map((origin) => origin.trim())
      .filter((origin) => origin.length > 0),
    trustProxy: trustProxy(env),
    housekeepingIntervalSeconds: parseDuration(
      nonEmpty(env, "HOUSEKEEPING_INTERVAL") ?? "15m",
      "HOUSEKEEPING_INTERVAL",
    ),
    drain: {
      noticeMs: wholeNumber(env, "DRAIN_NOTICE_MS", production ? 2000 : 0, 60_000),
      timeoutMs: positiveInt(env, "DRAIN_TIMEOUT_MS", 10_000, 600_000),
    },
    jobPollMs: positiveInt(env, "JOB_POLL_MS", 1000, 3_600_000),
    jobLeaseSeconds: parseDuration(nonEmpty(env, "JOB_LEASE") ?? "30s", "JOB_LEASE"),
    notificationBatchSize: positiveInt(env, "NOTIFICATION_BATCH_SIZE", 5000, 100_000),
    notificationStepMs: positiveInt(env, "NOTIFICATION_STEP_MS", 25, 10_000),
    loginRateLimit: positiveInt(env, "LOGIN_RATE_LIMIT", 10),
    loginFailuresPerAddress: positiveInt(env, "LOGIN_FAILURES_PER_ADDRESS", 30),
    loginLockout: {
      failures: positiveInt(env, "LOGIN_LOCKOUT_FAILURES", 10),
      minutes: positiveInt(env, "LOGIN_LOCKOUT_MINUTES", 30),
    },
    supportEmail: nonEmpty(env, "SUPPORT_EMAIL"),
    businessTimeZone: timeZone(env, "BUSINESS_TIMEZONE", DEFAULT_BUSINESS_TIMEZONE),
    // Relative to the working directory, as DATA_DIR (the static file server needs it absolute).
    distDir: ((dir) => dir && resolve(dir))(nonEmpty(env, "DIST_DIR")),
    logLevel: nonEmpty(env, "LOG_LEVEL") ?? "info",
    nodeEnv,
    demoAccounts: production ? [] : demoAccounts(env),
    bootstrapAdmin:
      adminEmail && adminPassword ? { email: adminEmail, password: adminPassword } : undefined,
    recaptchaSecret: captchaSecret,
    recaptchaVerifyUrl:
      url(env, "RECAPTCHA_VERIFY_URL", ["https:", "http:"]) ?? DEFAULT_RECAPTCHA_VERIFY_URL,
    smtpUrl: url(env, "SMTP_URL", ["smtp:", "smtps:"]),
    mailFrom: nonEmpty(env, "MAIL_FROM") ?? DEFAULT_MAIL_FROM,
    publicUrl: publicUrl ?? `http://localhost:${port}`,
    passkeys: passkeys(env, publicUrl ?? `http://localhost:${port}`, production),
    reportRateLimitPerIp: positiveInt(env, "REPORT_RATE_LIMIT_PER_IP", 10),
    reportRateLimitPerEmail: positiveInt(env, "REPORT_RATE_LIMIT_PER_EMAIL", 3),
    passwordResetRateLimitPerIp: positiveInt(env, "PASSWORD_RESET_RATE_LIMIT_PER_IP", 30),
    invoiceFont: invoiceFont(env),
  };
}

/** Debian's fonts-noto-cjk: Simplified Chinese face of the Sans collection. */
export const DEFAULT_INVOICE_FONT = {
  path: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
  face: "NotoSansCJKsc-Regular",
};

function invoiceFont(env: Env): Config["invoiceFont"] {
  const given = nonEmpty(env, "INVOICE_FONT");
  if (!given) return existsSync(DEFAULT_INVOICE_FONT.path) ? DEFAULT_INVOICE_FONT : undefined;
  const [path = "", face] = given.split("#");
  if (!existsSync(path)) throw new ConfigError(`INVOICE_FONT: no font file at ${path}`);
  if (path.toLowerCase().endsWith(".ttc") && !face) {
    throw new ConfigError("INVOICE_FONT: a .ttc collection needs its face, e.g. file.ttc#Face");
  }
  return face ? { path, face } : { path };
}
