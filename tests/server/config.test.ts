import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { ConfigError, loadConfig, parseDuration } from "../../server/config";

let dir: string;

/** What a production start requires of the environment, with the captcha switched off. */
const productionEnv = (extra: Record<string, string> = {}) => ({
  DATA_DIR: dir,
  NODE_ENV: "production",
  INTEGRITY_SIGNING_KEY: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
  JWT_SECRET: "p".repeat(40),
  SECOND_FACTOR_KEY: "k".repeat(40),
  RECAPTCHA_DISABLED: "true",
  ...extra,
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ucsi-wallet-config-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("loadConfig", () => {
  it("has documented defaults", () => {
    const config = loadConfig({ DATA_DIR: dir });
    expect(config).toMatchObject({
      port: 8080,
      host: "0.0.0.0",
      dataDir: resolve(dir),
      databaseUrl: undefined,
      databasePoolMax: 10,
      statementTimeoutMs: 20_000,
      jwtTtlSeconds: 12 * 3600,
      corsOrigins: [],
      loginRateLimit: 10,
      supportEmail: undefined,
      logLevel: "info",
      nodeEnv: "development",
      bootstrapAdmin: undefined,
      passwordHashCost: 15,
    });
    expect(config.demoAccounts.map((a) => `${a.role}: ${a.email} / ${a.password}`)).toEqual([
      "super administrator: superadmin@wallet.example / SuperAdmin#2026",
      "user desk: userdesk@wallet.example / UserDesk#2026",
      "finance: finance@wallet.example / Finance#2026",
      "banned administrator: banned@wallet.example / Banned#2026",
      "second super administrator: approver@wallet.example / Approver#2026",
      "finance checker: checker@wallet.example / Checker#2026",
      "two-step administrator: twostep@wallet.example / TwoStep#2026",
    ]);
  });

  it("generates the JWT secret and the second-factor key once, keeps them in DATA_DIR with mode 0600, and reuses them", async () => {
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    for (const [name, value] of [
      ["jwt-secret", first.jwtSecret],
      ["second-factor-key", first.secondFactorKey],
    ] as const) {
      expect(value.length).toBeGreaterThanOrEqual(32);
      const file = join(dir, name);
      expect((await readFile(file, "utf8")).trim()).toBe(value);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
    }
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(second.secondFactorKey).toBe(first.secondFactorKey);
    expect(first.secondFactorKey).not.toBe(first.jwtSecret);
  });

  it("requires SECOND_FACTOR_KEY of 32 characters or more in production", () => {
    const production = {
      DATA_DIR: dir,
      NODE_ENV: "production",
      INTEGRITY_SIGNING_KEY: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
      JWT_SECRET: "p".repeat(40),
      PUBLIC_URL: "https://console.wallet.example",
      RECAPTCHA_DISABLED: "true",
    };
    expect(() => loadConfig(production)).toThrow(/SECOND_FACTOR_KEY is required/);
    expect(() => loadConfig({ ...production, SECOND_FACTOR_KEY: "short" })).toThrow(
      /SECOND_FACTOR_KEY must be at least 32/,
    );
    const config = loadConfig({ ...production, SECOND_FACTOR_KEY: "k".repeat(40) });
    expect(config).toMatchObject({
      secondFactorKey: "k".repeat(40),
      secondFactorKeyIsLocal: false,
    });
  });

  it("binds passkeys to PUBLIC_URL's host, and refuses origins outside the RP ID's domain", () => {
    expect(loadConfig({ DATA_DIR: dir, PORT: "9090" }).passkeys).toEqual({
      rpId: "localhost",
      origins: ["http://localhost:9090", "http://localhost:5173"],
    });
    expect(
      loadConfig({ DATA_DIR: dir, PUBLIC_URL: "https://console.wallet.example" }).passkeys,
    ).toEqual({ rpId: "console.wallet.example", origins: ["https://console.wallet.example"] });
    expect(
      loadConfig({
        DATA_DIR: dir,
        WEBAUTHN_RP_ID: "wallet.example",
        WEBAUTHN_ORIGINS: "https://console.wallet.example, https://wallet.example",
      }).passkeys,
    ).toEqual({
      rpId: "wallet.example",
      origins: ["https://console.wallet.example", "https://wallet.example"],
    });
    expect(() =>
      loadConfig({
        DATA_DIR: dir,
        WEBAUTHN_RP_ID: "wallet.example",
        WEBAUTHN_ORIGINS: "https://evil.example",
      }),
    ).toThrow(/WEBAUTHN_RP_ID wallet.example is not the domain of https:\/\/evil.example/);
    expect(() =>
      loadConfig({ DATA_DIR: dir, WEBAUTHN_ORIGINS: "https://wallet.example/login" }),
    ).toThrow(/is not an origin/);
  });

  it("requires JWT_SECRET in production and seeds no demo accounts there", () => {
    expect(() => loadConfig({ DATA_DIR: dir, NODE_ENV: "production" })).toThrow(ConfigError);
    const config = loadConfig({
      DATA_DIR: dir,
      NODE_ENV: "production",
      INTEGRITY_SIGNING_KEY: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
      JWT_SECRET: "p".repeat(40),
      SECOND_FACTOR_KEY: "k".repeat(40),
      RECAPTCHA_SECRET: "recaptcha-secret",
      PUBLIC_URL: "https://console.wallet.example/",
      ADMIN_EMAIL: "root@wallet.example",
      ADMIN_PASSWORD: "Root#Passw0rd",
    });
    expect(config.demoAccounts).toEqual([]);
    expect(config.jwtSecret).toBe("p".repeat(40));
    expect(config.bootstrapAdmin).toEqual({
      email: "root@wallet.example",
      password: "Root#Passw0rd",
    });
  });

  it("requires PUBLIC_URL in production; elsewhere e-mailed links point at this server", () => {
    const production = productionEnv();
    expect(() => loadConfig(production)).toThrow(/PUBLIC_URL is required/);
    expect(loadConfig({ ...production, PUBLIC_URL: "https://wallet.example//" }).publicUrl).toBe(
      "https://wallet.example",
    );
    expect(loadConfig({ DATA_DIR: dir, PORT: "9090" }).publicUrl).toBe("http://localhost:9090");
  });

  it("reads every variable", () => {
    const config = loadConfig({
      DATA_DIR: dir,
      PORT: "9090",
      HOST: "127.0.0.1",
      DATABASE_URL: "postgres://u@localhost/db",
      DATABASE_POOL_MAX: "4",
      STATEMENT_TIMEOUT_MS: "5000",
      JWT_TTL: "30m",
      CORS_ORIGIN: "https://a.example, https://b.example,",
      LOGIN_RATE_LIMIT: "5",
      SUPPORT_EMAIL: "help@wallet.example",
      LOG_LEVEL: "warn",
      DEMO_FINANCE_PASSWORD: "Other#Finance1",
    });
    expect(config).toMatchObject({
      port: 9090,
      host: "127.0.0.1",
      databaseUrl: "postgres://u@localhost/db",
      databasePoolMax: 4,
      statementTimeoutMs: 5000,
      jwtTtlSeconds: 1800,
      corsOrigins: ["https://a.example", "https://b.example"],
      loginRateLimit: 5,
      supportEmail: "help@wallet.example",
      logLevel: "warn",
    });
    expect(config.demoAccounts.find((a) => a.role === "finance")?.password).toBe("Other#Finance1");
  });

  it("rejects nonsense with a message naming the variable", () => {
    const bad: Array<[Record<string, string>, RegExp]> = [
      [{ PORT: "http" }, /PORT/],
      [{ PORT: "70000" }, /PORT/],
      [{ LOGIN_RATE_LIMIT: "0" }, /LOGIN_RATE_LIMIT/],
      [{ DATABASE_POOL_MAX: "0" }, /DATABASE_POOL_MAX/],
      [{ JWT_TTL: "soon" }, /JWT_TTL/],
      [{ JWT_SECRET: "short" }, /JWT_SECRET/],
      [{ ADMIN_EMAIL: "root@wallet.example" }, /ADMIN_PASSWORD/],
    ];
    for (const [env, message] of bad) {
      expect(() => loadConfig({ DATA_DIR: dir, ...env }), JSON.stringify(env)).toThrow(message);
    }
  });
});

describe("loadConfig: PASSWORD_HASH_COST", () => {
  it("may be raised anywhere, up to 20, and lowered to 10 only outside production", () => {
    expect(loadConfig({ DATA_DIR: dir, PASSWORD_HASH_COST: "10" }).passwordHashCost).toBe(10);
    expect(loadConfig({ DATA_DIR: dir, PASSWORD_HASH_COST: " 20 " }).passwordHashCost).toBe(20);
    const production = productionEnv({ PUBLIC_URL: "https://console.wallet.example" });
    expect(loadConfig(production).passwordHashCost).toBe(15);
    expect(loadConfig({ ...production, PASSWORD_HASH_COST: "16" }).passwordHashCost).toBe(16);
    expect(() => loadConfig({ ...production, PASSWORD_HASH_COST: "14" })).toThrow(
      /PASSWORD_HASH_COST must be an integer between 15 and 20 in production, got "14"/,
    );
    for (const raw of ["9", "21", "12.5", "fast", "1e1", "-12"]) {
      expect(() => loadConfig({ DATA_DIR: dir, PASSWORD_HASH_COST: raw }), raw).toThrow(
        /PASSWORD_HASH_COST must be an integer between 10 and 20, got/,
      );
    }
  });
});

describe("loadConfig: several instances", () => {
  it("believes no X-Forwarded-For and cleans up every 15 minutes by default", () => {
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.trustProxy).toBe(false);
    expect(config.housekeepingIntervalSeconds).toBe(900);
    expect(config.jwtSecretIsLocal).toBe(true);
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: "s".repeat(40) }).jwtSecretIsLocal).toBe(false);
  });

  it("reads TRUST_PROXY as true, false or the proxies' addresses and ranges", () => {
    const trust = (value: string) => loadConfig({ DATA_DIR: dir, TRUST_PROXY: value }).trustProxy;
    expect(trust("true")).toBe(true);
    expect(trust("FALSE")).toBe(false);
    expect(trust("loopback, 10.0.0.0/8,192.0.2.10, fd00::/8")).toEqual([
      "loopback",
      "10.0.0.0/8",
      "192.0.2.10",
      "fd00::/8",
    ]);
    expect(loadConfig({ DATA_DIR: dir, HOUSEKEEPING_INTERVAL: "2s" })).toMatchObject({
      housekeepingIntervalSeconds: 2,
    });
  });

  it.each(["1", "10.0.0.0/33", "proxy.example", "10.0.0.1,"])(
    "refuses TRUST_PROXY=%s, naming it",
    (value) => {
      expect(() => loadConfig({ DATA_DIR: dir, TRUST_PROXY: value })).toThrow(
        /^TRUST_PROXY must be/,
      );
    },
  );
});

describe("loadConfig: the calculator report's settings", () => {
  it("has documented defaults: no captcha check, outbox delivery, 10 per IP and 3 per address", () => {
    expect(loadConfig({ DATA_DIR: dir })).toMatchObject({
      recaptchaSecret: undefined,
      recaptchaVerifyUrl: "https://www.google.com/recaptcha/api/siteverify",
      smtpUrl: undefined,
      mailFrom: "UCSI Wallet <no-reply@wallet.example>",
      reportRateLimitPerIp: 10,
      reportRateLimitPerEmail: 3,
    });
  });

  it("reads every variable", () => {
    const config = loadConfig({
      DATA_DIR: dir,
      RECAPTCHA_SECRET: "captcha-secret",
      RECAPTCHA_VERIFY_URL: "http://127.0.0.1:8801/siteverify",
      SMTP_URL: "smtps://user:pass@mail.example:465",
      MAIL_FROM: "Reports <reports@wallet.example>",
      REPORT_RATE_LIMIT_PER_IP: "20",
      REPORT_RATE_LIMIT_PER_EMAIL: "5",
    });
    expect(config).toMatchObject({
      recaptchaSecret: "captcha-secret",
      recaptchaVerifyUrl: "http://127.0.0.1:8801/siteverify",
      smtpUrl: "smtps://user:pass@mail.example:465",
      mailFrom: "Reports <reports@wallet.example>",
      reportRateLimitPerIp: 20,
      reportRateLimitPerEmail: 5,
    });
  });

  it("requires RECAPTCHA_SECRET in production unless RECAPTCHA_DISABLED=true", () => {
    const production = {
      DATA_DIR: dir,
      NODE_ENV: "production",
      INTEGRITY_SIGNING_KEY: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
      JWT_SECRET: "p".repeat(40),
      SECOND_FACTOR_KEY: "k".repeat(40),
      PUBLIC_URL: "https://console.wallet.example",
    };
    expect(() => loadConfig(production)).toThrow(/RECAPTCHA_SECRET is required/);
    expect(loadConfig({ ...production, RECAPTCHA_DISABLED: "true" }).recaptchaSecret).toBe(
      undefined,
    );
    expect(
      loadConfig({ ...production, RECAPTCHA_SECRET: "s", RECAPTCHA_DISABLED: "true" })
        .recaptchaSecret,
    ).toBe(undefined);
  });

  it("rejects nonsense with a message naming the variable, without echoing an SMTP password", () => {
    const bad: Array<[Record<string, string>, RegExp]> = [
      [{ RECAPTCHA_DISABLED: "yes please" }, /RECAPTCHA_DISABLED/],
      [{ RECAPTCHA_VERIFY_URL: "ftp://siteverify.example" }, /RECAPTCHA_VERIFY_URL/],
      [{ SMTP_URL: "http://user:hunter2@mail.example" }, /SMTP_URL must be a smtp: or smtps: URL$/],
      [{ REPORT_RATE_LIMIT_PER_IP: "0" }, /REPORT_RATE_LIMIT_PER_IP/],
      [{ REPORT_RATE_LIMIT_PER_EMAIL: "many" }, /REPORT_RATE_LIMIT_PER_EMAIL/],
    ];
    for (const [env, message] of bad) {
      expect(() => loadConfig({ DATA_DIR: dir, ...env }), JSON.stringify(env)).toThrow(message);
    }
  });
});

describe("parseDuration", () => {
  it("accepts seconds and duration strings", () => {
    expect(parseDuration("3600")).toBe(3600);
    expect(parseDuration("2s")).toBe(2);
    expect(parseDuration("15 minutes")).toBe(900);
    expect(parseDuration("12h")).toBe(43_200);
    expect(parseDuration("7d")).toBe(604_800);
    expect(parseDuration("1w")).toBe(604_800);
  });

  it("refuses anything else", () => {
    for (const value of ["", "0", "-5s", "1.5h", "12 parsecs", "h"]) {
      expect(() => parseDuration(value), value).toThrow(ConfigError);
    }
  });
});
