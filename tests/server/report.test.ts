import { spawn } from "node:child_process";
import { readdir, readFile, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import cnZH from "../../locales/cn-ZH/calculator.json";
import enUS from "../../locales/en-US/calculator.json";
import type { App } from "../../server/app";
import { ConfigError, DEFAULT_MAIL_FROM, loadConfig } from "../../server/config";
import { createTestDatabase, testEnv, type TestDatabase } from "./support/database";
import { readMail } from "./support/mime";
import { unusedPort } from "./support/ports";
import { createReportApp, freshIp, freshRecipient, REPORT_URL, sendReport } from "./support/report";
import { CAPTCHA_TOKENS, startSiteverify, type SiteverifyStandIn } from "./support/siteverify";
import { startSmtpPeer, type SmtpPeer } from "./support/smtp";

const CAPTCHA_SECRET = "test-recaptcha-secret";

/** What a visitor typed; the figures expected below are worked out by hand (docs/calculator.md). */
const INPUTS = {
  name: "Ali <b>bin</b> Abu",
  targetNetworth: "1,000,000",
  cashAndCashEquivalents: "30000",
  totalPropertyWorth: "500,000.00",
  totalMortgageBalance: "300000",
  carLoanBalance: "40000",
  monthlyTotalInflow: "8000",
  monthlyActiveIncome: "10000",
  monthlyPassiveIncome: "1000",
  totalMonthlyExpenses: "5000",
  monthlyMortgageLoanRepayment: "2000",
  monthlyNonMortgageLoanRepayment: "800",
};
/**
 * Liquidity 30,000 ÷ 5,000 = 6.0 months; savings (8,000 − 5,000) ÷ 11,000 = 27.3 %; debt service
 * 2,800 ÷ 8,000 = 35.0 % (the optimum edge); debt to asset 340,000 ÷ 530,000 = 64.2 %; solvency
 * 190,000 ÷ 530,000 = 35.8 %; net worth RM 190,000.00; the cash as typed, RM 30,000.00.
 */
const FIGURES = ["6.0", "27.3%", "35.0%", "64.2%", "35.8%", "RM 190,000.00", "RM 30,000.00"];

/**
 * What must never reach the log: the address, the name, the figures as typed (quoted, as a JSON
 * body would show them; bare digits also occur in timings) and as computed.
 */
const neverLogged = (email: string) => [
  email,
  "Ali <b>",
  "Abu",
  '"30000"',
  '"500,000.00"',
  "30,000",
  "190,000",
  "27.3%",
];

let testDb: TestDatabase;
let smtp: SmtpPeer;
let refusingSmtp: SmtpPeer;
let siteverify: SiteverifyStandIn;
let closedPort: number;
let app: App;
let logs: string[];
const apps: App[] = [];

async function reportApp(env: Record<string, string>) {
  const built = await createReportApp(testDb, {
    RECAPTCHA_SECRET: CAPTCHA_SECRET,
    RECAPTCHA_VERIFY_URL: siteverify.url,
    REPORT_RATE_LIMIT_PER_IP: "1000",
    REPORT_RATE_LIMIT_PER_EMAIL: "1000",
    ...env,
  });
  apps.push(built.app);
  return built;
}

const report = (overrides: Record<string, unknown> = {}) => ({
  inputs: INPUTS,
  email: freshRecipient(),
  captchaToken: CAPTCHA_TOKENS.valid,
  language: "en-US",
  ...overrides,
});

beforeAll(async () => {
  testDb = await createTestDatabase();
  smtp = await startSmtpPeer();
  refusingSmtp = await startSmtpPeer({ reject: true });
  siteverify = await startSiteverify(CAPTCHA_SECRET);
  closedPort = await unusedPort();
  ({ app, logs } = await reportApp({ SMTP_URL: smtp.url }));
});

afterAll(async () => {
  await Promise.all(apps.map((each) => each.close()));
  await Promise.all([smtp?.close(), refusingSmtp?.close(), siteverify?.close()]);
  await testDb?.destroy();
});

describe("POST /v1/api/calculator/report over SMTP", () => {
  it("e-mails the recomputed report in Chinese, with figures, bands and optimums in both parts", async () => {
    const email = freshRecipient();
    const before = smtp.received.length;
    const response = await sendReport(app, report({ email, language: "cn-ZH" }), {
      ip: "192.0.2.7",
    });
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json()).toEqual({ status: "sent" });

    expect(smtp.received).toHaveLength(before + 1);
    const received = smtp.received.at(-1)!;
    expect(received.to).toEqual([email]);
    expect(received.from).toBe("no-reply@wallet.example");
    const mail = readMail(received.raw);
    expect(mail.to).toBe(email);
    expect(mail.headers.get("from")).toBe(DEFAULT_MAIL_FROM);
    expect(mail.subject).toBe(cnZH.email.subject);
    for (const part of [mail.text, mail.html]) {
      for (const figure of FIGURES) expect(part).toContain(figure);
      expect(part).toContain("6.0 个月");
      for (const band of ["optimum", "moderate", "adverse"] as const) {
        expect(part).toContain(cnZH.bands[band]);
      }
      expect(part).toContain(cnZH.ratios.debtServiceRatio.name);
      expect(part).toContain(cnZH.ratios.basicLiquidityRatio.optimum.replace("个月", ""));
      expect(part).toContain(cnZH.results.groups.assetHealth);
      expect(part).toContain(cnZH.email.footer);
    }
    expect(mail.text).toContain(
      `${cnZH.ratios.debtServiceRatio.name}: 35.0% (${cnZH.bands.optimum})`,
    );
    expect(mail.html).toContain('<html lang="zh-CN">');

    // The captcha was checked with the secret and the visitor's address.
    expect(siteverify.requests.at(-1)).toEqual({
      secret: CAPTCHA_SECRET,
      response: CAPTCHA_TOKENS.valid,
      remoteip: "192.0.2.7",
    });
  });

  it("greets by name in English and escapes the name in the HTML", async () => {
    const response = await sendReport(app, report());
    expect(response.statusCode, response.body).toBe(202);
    const mail = readMail(smtp.received.at(-1)!.raw);
    expect(mail.subject).toBe(enUS.email.subject);
    expect(mail.text).toContain("Dear Ali <b>bin</b> Abu,");
    expect(mail.html).toContain("Dear Ali &lt;b&gt;bin&lt;/b&gt; Abu,");
    expect(mail.html).not.toContain("<b>bin");
    expect(mail.html).toContain('<html lang="en">');
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain("6.0 months");
      expect(part).toContain(enUS.ratios.basicLiquidityRatio.optimum);
      for (const band of ["Optimum", "Moderate", "Adverse"]) expect(part).toContain(band);
    }
    expect(mail.text).toContain(`${enUS.ratios.goldenRatio.name}: 20.0% (Adverse)`);
    expect(mail.text).toContain(`${enUS.ratios.debtToAssetRatio.name}: 64.2% (Moderate)`);
  });

  it("uses the anonymous greeting and explains figures that cannot be computed", async () => {
    const response = await sendReport(
      app,
      report({ inputs: { cashAndCashEquivalents: "100", carLoanBalance: "250.50" } }),
    );
    expect(response.statusCode, response.body).toBe(202);
    const { text } = readMail(smtp.received.at(-1)!.raw);
    expect(text).toContain(enUS.email.greetingNoName);
    expect(text).toContain(`${enUS.ratios.networth.name}: −RM 150.50 (Adverse)`);
    expect(text).toContain(enUS.results.unlimited);
    expect(text).toContain(enUS.results.setTarget);
    expect(text).toContain(enUS.reasons["debts-exceed-assets"]);
  });

  it("logs the event with a pseudonymous recipient and never the figures, name or address", async () => {
    const email = freshRecipient();
    logs.length = 0;
    const response = await sendReport(app, report({ email }));
    expect(response.statusCode).toBe(202);
    const sent = logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    const event = sent.find((line) => line.msg === "calculator report sent");
    expect(event).toMatchObject({
      event: "calculator.report",
      language: "en-US",
      transport: "smtp",
    });
    expect(event?.recipient).toMatch(/^[0-9a-f]{16}$/);
    const all = logs.join("\n");
    for (const secret of neverLogged(email)) expect(all).not.toContain(secret);
  });
});

describe("the outbox (no SMTP_URL)", () => {
  it("writes a readable .eml into DATA_DIR/outbox, private to the server's user", async () => {
    const { app: outboxApp } = await reportApp({});
    const email = freshRecipient();
    const response = await sendReport(outboxApp, report({ email }));
    expect(response.statusCode, response.body).toBe(202);

    const outbox = join(testDb.dataDir, "outbox");
    expect((await stat(outbox)).mode & 0o777).toBe(0o700);
    const files = (await readdir(outbox)).filter((file) => file.endsWith(".eml"));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d{2}-\d{2}T[\d-]+Z-[0-9a-f]{8}\.eml$/);
    const file = join(outbox, files[0]!);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const mail = readMail(await readFile(file, "utf8"));
    expect(mail.to).toBe(email);
    expect(mail.subject).toBe(enUS.email.subject);
    for (const figure of FIGURES) {
      expect(mail.text).toContain(figure);
      expect(mail.html).toContain(figure);
    }
  });
});

describe("refused reports send nothing", () => {
  const invalid: Array<[string, Record<string, unknown>, string, string]> = [
    [
      "a negative amount",
      { inputs: { carLoanBalance: "-5" } },
      "inputs.carLoanBalance",
      enUS.errors.negative,
    ],
    ["a non-number", { inputs: { others: "lots" } }, "inputs.others", enUS.errors.notANumber],
    [
      "three decimals",
      { inputs: { monthlyTotalInflow: "1.234" } },
      "inputs.monthlyTotalInflow",
      enUS.errors.tooManyDecimals,
    ],
    ["an unknown field", { inputs: { salary: "100" } }, "inputs.salary", "Unknown field"],
    ["a number instead of text", { inputs: { others: 5 } }, "inputs.others", "Invalid"],
    ["a bad e-mail address", { email: "not-an-address" }, "email", "Invalid"],
    ["an unknown language", { language: "fr-FR" }, "language", "Invalid"],
  ];
  for (const [what, overrides, path, message] of invalid) {
    it(`answers 400 naming the field for ${what}`, async () => {
      const before = smtp.received.length;
      const response = await sendReport(app, report(overrides));
      expect(response.statusCode, response.body).toBe(400);
      const body = response.json<{ code: string; message: string; data: { issues: unknown[] } }>();
      expect(body.code).toBe("VALIDATION_ERROR");
      expect(body.message).toContain(path);
      expect(body.message).toContain(message);
      expect(body.data.issues[0]).toMatchObject({ path });
      expect(smtp.received).toHaveLength(before);
    });
  }

  it("names every bad field at once", async () => {
    const response = await sendReport(
      app,
      report({ inputs: { carLoanBalance: "-1", others: "1.001", name: "x".repeat(101) } }),
    );
    expect(response.statusCode).toBe(400);
    const paths = response
      .json<{ data: { issues: Array<{ path: string }> } }>()
      .data.issues.map((issue) => issue.path);
    expect(paths.sort()).toEqual(["inputs.carLoanBalance", "inputs.name", "inputs.others"]);
  });

  it("requires the captcha token when a secret is set", async () => {
    const before = smtp.received.length;
    const response = await sendReport(app, report({ captchaToken: null }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: "CAPTCHA_FAILED",
      message: expect.stringContaining("captchaToken"),
      data: { issues: [{ path: "captchaToken" }] },
    });
    expect(smtp.received).toHaveLength(before);
  });

  it("answers 400 CAPTCHA_FAILED when siteverify rejects the token", async () => {
    const before = smtp.received.length;
    const asked = siteverify.requests.length;
    const response = await sendReport(app, report({ captchaToken: "forged-token" }));
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe("CAPTCHA_FAILED");
    expect(siteverify.requests).toHaveLength(asked + 1);
    expect(smtp.received).toHaveLength(before);
  });

  it("answers 503 CAPTCHA_UNAVAILABLE when siteverify fails or cannot be reached", async () => {
    const before = smtp.received.length;
    const broken = await sendReport(app, report({ captchaToken: CAPTCHA_TOKENS.broken }));
    expect(broken.statusCode).toBe(503);
    expect(broken.json().code).toBe("CAPTCHA_UNAVAILABLE");

    const { app: unreachable } = await reportApp({
      SMTP_URL: smtp.url,
      RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${closedPort}/siteverify`,
    });
    const down = await sendReport(unreachable, report());
    expect(down.statusCode).toBe(503);
    expect(down.json().code).toBe("CAPTCHA_UNAVAILABLE");
    expect(smtp.received).toHaveLength(before);
  });

  it("skips the captcha when it is switched off (RECAPTCHA_DISABLED)", async () => {
    const { app: noCaptcha } = await reportApp({ SMTP_URL: smtp.url, RECAPTCHA_DISABLED: "true" });
    const asked = siteverify.requests.length;
    const response = await sendReport(noCaptcha, report({ captchaToken: null }));
    expect(response.statusCode, response.body).toBe(202);
    expect(siteverify.requests).toHaveLength(asked);
  });
});

describe("rate limits", () => {
  it("allows REPORT_RATE_LIMIT_PER_IP reports an hour from one address", async () => {
    const { app: limited } = await reportApp({ SMTP_URL: smtp.url, REPORT_RATE_LIMIT_PER_IP: "2" });
    const ip = freshIp();
    expect((await sendReport(limited, report(), { ip })).statusCode).toBe(202);
    expect((await sendReport(limited, report(), { ip })).statusCode).toBe(202);
    const before = smtp.received.length;
    const refused = await sendReport(limited, report(), { ip });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: "RATE_LIMITED", data: { limit: "ip" } });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(3000);
    expect(smtp.received).toHaveLength(before);
    // Another visitor is not affected.
    expect((await sendReport(limited, report())).statusCode).toBe(202);
  });

  it("allows REPORT_RATE_LIMIT_PER_EMAIL reports an hour to one address, in any letter case", async () => {
    const { app: limited } = await reportApp({
      SMTP_URL: smtp.url,
      REPORT_RATE_LIMIT_PER_EMAIL: "2",
    });
    const email = freshRecipient();
    expect((await sendReport(limited, report({ email }))).statusCode).toBe(202);
    expect((await sendReport(limited, report({ email: email.toUpperCase() }))).statusCode).toBe(
      202,
    );
    const refused = await sendReport(limited, report({ email: ` ${email} ` }));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: "RATE_LIMITED", data: { limit: "email" } });
    expect((await sendReport(limited, report())).statusCode).toBe(202);
  });

  it("does not count reports to an address that failed the captcha", async () => {
    const { app: limited } = await reportApp({
      SMTP_URL: smtp.url,
      REPORT_RATE_LIMIT_PER_EMAIL: "1",
    });
    const email = freshRecipient();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(
        (await sendReport(limited, report({ email, captchaToken: "forged" }))).statusCode,
      ).toBe(400);
    }
    expect((await sendReport(limited, report({ email }))).statusCode).toBe(202);
  });
});

describe("mail failures", () => {
  it("answers 502 MAIL_FAILED when the SMTP server refuses the message, logging no figures", async () => {
    const { app: failing, logs: failingLogs } = await reportApp({ SMTP_URL: refusingSmtp.url });
    const email = freshRecipient();
    const response = await sendReport(failing, report({ email }));
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ code: "MAIL_FAILED" });
    const failure = failingLogs
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.msg === "calculator report not sent");
    expect(failure).toMatchObject({ event: "calculator.report", failure: { responseCode: 554 } });
    const all = failingLogs.join("\n");
    for (const secret of neverLogged(email)) expect(all).not.toContain(secret);
  });

  it("answers 502 MAIL_FAILED when nothing listens on the SMTP port", async () => {
    const { app: failing, logs: failingLogs } = await reportApp({
      SMTP_URL: `smtp://127.0.0.1:${closedPort}`,
    });
    const email = freshRecipient();
    const response = await sendReport(failing, report({ email }));
    expect(response.statusCode).toBe(502);
    expect(response.json().code).toBe("MAIL_FAILED");
    const all = failingLogs.join("\n");
    expect(all).toContain("calculator report not sent");
    for (const secret of neverLogged(email)) expect(all).not.toContain(secret);
  });
});

describe("documentation and configuration", () => {
  it("is documented in the OpenAPI document as a public call", async () => {
    const response = await app.inject({ method: "GET", url: "/v1/docs/json" });
    const operation = response.json().paths[REPORT_URL].post;
    expect(operation.security).toEqual([]);
    // 413 and 415 are listed too now: the document names every status the route can answer.
    expect(Object.keys(operation.responses).sort()).toEqual([
      "202",
      "400",
      "413",
      "415",
      "429",
      "502",
      "503",
    ]);
    expect(operation.description).toContain("MAIL_FAILED");
    expect(
      Object.keys(operation.requestBody.content["application/json"].schema.properties),
    ).toEqual(["inputs", "email", "captchaToken", "language"]);
  });

  it("refuses a production configuration without a captcha secret unless explicitly disabled", () => {
    const production = testEnv(testDb.dataDir, {
      NODE_ENV: "production",
      PUBLIC_URL: "https://console.wallet.example",
    });
    expect(() => loadConfig(production)).toThrow(ConfigError);
    expect(() => loadConfig(production)).toThrow(/RECAPTCHA_SECRET.*RECAPTCHA_DISABLED=true/);
    expect(
      loadConfig({ ...production, RECAPTCHA_DISABLED: "true" }).recaptchaSecret,
    ).toBeUndefined();
  });

  it("stops `npm start` in production without a captcha secret, with exit code 1", async () => {
    const root = resolve(fileURLToPath(new URL("../..", import.meta.url)));
    const child = spawn(join(root, "node_modules", ".bin", "tsx"), ["server/main.ts"], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? "",
        ...testEnv(testDb.dataDir, { NODE_ENV: "production", PORT: String(closedPort) }),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.on("exit", done));
    expect(code).toBe(1);
    expect(output).toContain("Configuration error: RECAPTCHA_SECRET is required");
  });
});
