import { chromium } from "@playwright/test";
import { demoLogins, startServer } from "./tests/e2e/support/server";

const server = await startServer({ port: 8391, env: { DIST_DIR: "dist" } });
const finance = demoLogins(server.output()).get("finance")!;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });
const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
await page.goto(`${server.url}/login`);
await page.getByLabel(/e-?mail/i).fill(finance.email);
await page.getByLabel(/password/i).fill(finance.password);
await page.keyboard.press("Enter");
await page.waitForURL(/dashboard/);
for (const [name, path] of [
  ["summary", "/merchant-transaction-summary"],
  ["settlements", "/settlement-record"],
  ["detail", "/settlement-details/3"],
  ["invoice", "/settlement-record?id=invoice&settlement=3"],
]) {
  await page.goto(`${server.url}${path}`);
  await page.waitForTimeout(2500);
  await page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: true });
}
await page.emulateMedia({ media: "print" });
await page.screenshot({ path: `/tmp/shots/invoice-print.png`, fullPage: true });
await browser.close();
await server.stop();
