/**
 * The calculator story (issue 4), in Debian's Chromium against the real server: a visitor fills
 * the form, reads the ratios, asks for the report by e-mail, and the delivered message carries
 * the same figures. Nothing leaves the machine: Google's reCAPTCHA script is routed to a local
 * stand-in, siteverify is a local HTTP stand-in, and the mail goes to a local SMTP server.
 */
import { createServer, type Server } from "node:http";
import type { Page } from "@playwright/test";
import { SMTPServer } from "smtp-server";
import { seriousA11yViolations } from "./support/console";
import { expect, test } from "./support/fixtures";
import { e2ePort } from "./support/ports";
import { CAPTCHA_TOKEN, standInRecaptcha } from "./support/recaptcha";
import { startServer, type RunningServer } from "./support/server";

const PORT = e2ePort(20);
const SITEVERIFY_PORT = e2ePort(21);
const SMTP_PORT = e2ePort(22);
let server: RunningServer;
let siteverify: Server;
let smtp: SMTPServer;
const verifications: URLSearchParams[] = [];
const delivered: string[] = [];

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  siteverify = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      verifications.push(new URLSearchParams(body));
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ success: true }));
    });
  });
  await new Promise<void>((resolve) => siteverify.listen(SITEVERIFY_PORT, "127.0.0.1", resolve));

  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString()));
      stream.on("end", () => {
        delivered.push(raw);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(SMTP_PORT, "127.0.0.1", resolve));

  server = await startServer({
    port: PORT,
    env: {
      RECAPTCHA_SECRET: "e2e-secret",
      RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${SITEVERIFY_PORT}/siteverify`,
      SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
    },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  await new Promise<void>((resolve) =>
    siteverify ? siteverify.close(() => resolve()) : resolve(),
  );
});

/** The body parts of a raw message, decoded (nodemailer writes them in base64). */
function decodedParts(raw: string): string {
  return raw
    .split(/\r?\n--[^\r\n]+\r?\n/)
    .map((part) => {
      const [headers = "", ...body] = part.split(/\r?\n\r?\n/);
      const content = body.join("\n\n");
      if (/content-transfer-encoding:\s*base64/i.test(headers)) {
        return Buffer.from(content.replace(/\s+/g, ""), "base64").toString("utf8");
      }
      return content;
    })
    .join("\n");
}

const ratioCard = (page: Page, name: string) =>
  page.getByRole("listitem").filter({ has: page.getByRole("heading", { name, exact: true }) });

async function fillFigures(page: Page) {
  const figures: [RegExp, string][] = [
    [/^Name/, "Aisyah binti Ahmad"],
    [/^Target Net Worth/, "460000"],
    [/^Cash and Cash Equivalents/, "30,000"],
    [/^Total Property Worth/, "500000"],
    [/^Total Mortgage Balance/, "300000"],
    [/^Monthly Total Inflow/, "8000"],
    [/^Monthly Active Income/, "10000"],
    [/^Monthly Passive Income/, "500"],
    [/^Total Monthly Expenses/, "6000"],
    [/^Monthly Mortgage Loan Repayment/, "2000"],
    [/^Monthly Non-Mortgage Loan Repayment/, "800"],
  ];
  for (const [label, value] of figures) await page.getByLabel(label).fill(value);
}

test("a visitor fills the form, reads the ratios, and receives the same figures by e-mail", async ({
  page,
}) => {
  await standInRecaptcha(page);
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith(".js")) scripts.push(new URL(request.url()).pathname);
  });

  await page.goto(`${server.url}/`);
  await expect(page).toHaveTitle("Financial Goal Calculator");
  await expect(page.locator('meta[name="description"]')).toHaveAttribute(
    "content",
    /ten financial ratios/,
  );
  await expect(page.getByRole("heading", { name: "Financial Ratios Input" })).toBeVisible();
  await fillFigures(page);

  await expect(ratioCard(page, "Basic Liquidity Ratio")).toContainText("5.0 months");
  await expect(ratioCard(page, "Savings Ratio")).toContainText("19.0%");
  await expect(ratioCard(page, "Debt Service Ratio")).toContainText("35.0%");
  await expect(ratioCard(page, "Debt Service Ratio")).toContainText("Optimum");
  await expect(ratioCard(page, "Debt to Asset Ratio")).toContainText("56.6%");
  await expect(ratioCard(page, "Net Worth")).toContainText("RM 230,000.00");
  await expect(ratioCard(page, "Progress Towards Target Net Worth")).toContainText("50.0%");

  await page.getByLabel(/^Others/).fill("-5");
  await expect(page.getByText("negative amounts are not allowed")).toBeVisible();
  await page.getByLabel(/^Others/).fill("");

  // The console never loads on the calculator.
  expect(scripts.filter((path) => /console|antd|refine/i.test(path))).toEqual([]);

  await page.getByRole("button", { name: "Email Me My Report" }).click();
  const dialog = page.getByRole("dialog", { name: "Email Me My Report" });
  await expect(dialog.getByRole("button", { name: "I'm not a robot" })).toBeVisible();
  await dialog.getByRole("button", { name: "Ok" }).click();
  await expect(dialog.getByText("Email is required")).toBeVisible();
  await expect(dialog.getByText("Recaptcha is required")).toBeVisible();
  await dialog.getByLabel("Email").fill("aisyah@example");
  await expect(dialog.getByText("Please insert valid email address")).toBeVisible();

  await dialog.getByLabel("Email").fill("aisyah@example.com");
  await dialog.getByRole("button", { name: "I'm not a robot" }).click();
  await expect(dialog.getByText("Recaptcha is required")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Ok" }).click();
  await expect(dialog.getByText("Your report is on its way to aisyah@example.com.")).toBeVisible();

  expect(verifications.map((v) => [v.get("secret"), v.get("response")])).toEqual([
    ["e2e-secret", CAPTCHA_TOKEN],
  ]);
  await expect.poll(() => delivered.length).toBe(1);
  const raw = delivered[0]!;
  expect(raw).toMatch(/^To: aisyah@example.com/m);
  const message = decodedParts(raw);
  expect(message).toContain("Dear Aisyah binti Ahmad,");
  expect(message).toContain("Basic Liquidity Ratio: 5.0 months (Optimum)");
  expect(message).toContain("Savings Ratio: 19.0% (Optimum)");
  expect(message).toContain("Debt Service Ratio: 35.0% (Optimum)");
  expect(message).toContain("Debt to Asset Ratio: 56.6% (Moderate)");
  expect(message).toContain("Net Worth: RM 230,000.00 (Optimum)");
  expect(message).toContain("Progress Towards Target Net Worth: 50.0% (Moderate)");
  expect(message).toContain("RM 30,000.00");

  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Email Me My Report" })).toBeFocused();
});

test("the figures stay on the device, and the page speaks Chinese with the same rules", async ({
  page,
}) => {
  await standInRecaptcha(page);
  await page.goto(`${server.url}/`);
  await fillFigures(page);
  await page.reload();
  await expect(page.getByLabel(/^Cash and Cash Equivalents/)).toHaveValue("30,000");
  await expect(ratioCard(page, "Net Worth")).toContainText("RM 230,000.00");

  await page.getByRole("button", { name: "中文" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await expect(page).toHaveTitle("财务目标计算器");
  await expect(page.getByRole("heading", { name: "财务比率输入" })).toBeVisible();
  await expect(ratioCard(page, "基本流动比率")).toContainText("5.0 个月");

  await page.getByRole("button", { name: "通过电子邮件发送我的报告" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("button", { name: "I'm not a robot" })).toBeVisible();
  await dialog.getByRole("button", { name: "确定" }).click();
  await expect(dialog.getByText("请输入电子邮件")).toBeVisible();
  await expect(dialog.getByText("请完成人机验证")).toBeVisible();
  await dialog.getByLabel("电子邮件").fill("not-an-address");
  await expect(dialog.getByText("请输入有效的电子邮件地址")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);

  // The choice is remembered under the console's key.
  await page.reload();
  await expect(page.getByRole("heading", { name: "财务比率输入" })).toBeVisible();
  await page.getByRole("button", { name: "清除所有数字" }).click();
  await expect(page.getByLabel(/^现金及现金等价物/)).toHaveValue("");
  await page.reload();
  await expect(page.getByLabel(/^现金及现金等价物/)).toHaveValue("");
});

test("at 480 px the page works by keyboard alone and has no serious accessibility faults", async ({
  page,
}) => {
  await standInRecaptcha(page);
  await page.setViewportSize({ width: 480, height: 900 });
  await page.goto(`${server.url}/`);
  const widths = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(widths[0]).toBeLessThanOrEqual(widths[1]!);

  // Skip link, the two language buttons, then the form's first field.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to results" })).toBeFocused();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel(/^Name/)).toBeFocused();
  await page.keyboard.type("Siti");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel(/^Cash and Cash Equivalents/)).toBeFocused();
  await page.keyboard.type("1200");
  await expect(ratioCard(page, "Basic Liquidity Ratio")).toContainText("Unlimited");

  expect(await seriousA11yViolations(page)).toEqual([]);

  await page.getByRole("button", { name: "Email Me My Report" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByLabel("Email")).toBeFocused();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
});
