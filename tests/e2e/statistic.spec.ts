/**
 * Statistic (issue 15), against the real started server on the demo campus: the screen draws
 * its charts in English and Chinese; a preset changes the range and the figures with it; a
 * chart's CSV holds what the chart draws (the API's series, and the chart read as a table); the
 * user desk's dashboard shows only the user queues, a super administrator's every queue and the
 * 14-day trend.
 */
import { readFile } from "node:fs/promises";

import type { Page } from "@playwright/test";

import { formatRinggit } from "../../src/shared/money";
import type { Statistics } from "../../src/shared/schemas/statistics";
import { logIn, switchLanguage } from "./support/console";
import { expect, test } from "./support/fixtures";
import { e2ePort } from "./support/ports";
import { demoLogins, startServer, type RunningServer } from "./support/server";

const PORT = e2ePort(105);
let server: RunningServer;
let superAdmin: { email: string; password: string };
let desk: { email: string; password: string };

// The chart library is one ~470 kB chunk: on a busy machine it can take a while to arrive.
test.describe.configure({ mode: "serial", timeout: 300_000 });
const CHART_LOAD = { timeout: 90_000 };

test.beforeAll(async () => {
  // The server seeds the demo campus first: on a busy machine that can outlast the hook's 2 min.
  test.setTimeout(Number(process.env.E2E_SERVER_START_MS ?? 90_000) + 30_000);
  server = await startServer({
    port: PORT,
    env: process.env.DIST_DIR ? { DIST_DIR: process.env.DIST_DIR } : {},
  });
  const logins = demoLogins(server.output());
  superAdmin = logins.get("super administrator")!;
  desk = logins.get("user desk")!;
});

test.afterAll(async () => {
  await server?.stop();
});

const CHARTS = ["money", "newUsers", "activity", "channels", "merchants"];

/** The figure a KPI card shows, by its label. */
const kpi = (page: Page, label: string) =>
  page.locator("[data-figure]").filter({ has: page.getByText(label, { exact: true }) });

/** The statistics the screen asked for last, as the server answered them. */
function answers(page: Page) {
  const seen: Statistics[] = [];
  page.on("response", async (response) => {
    if (new URL(response.url()).pathname !== "/v1/api/statistics" || !response.ok()) return;
    seen.push((await response.json()) as Statistics);
  });
  return seen;
}

test("the Statistic screen draws its charts in English and in Chinese", async ({ page }) => {
  await logIn(page, server.url, superAdmin.email, superAdmin.password);
  await page.getByRole("navigation").getByRole("link", { name: "Statistic" }).click();
  await expect(page).toHaveURL(/\/statistic/);
  await expect(page.getByRole("heading", { name: "Statistic", level: 1 })).toBeVisible();
  for (const chart of CHARTS) {
    await expect(page.locator(`[data-chart="${chart}"] canvas`).first()).toBeVisible(CHART_LOAD);
  }
  await expect(kpi(page, "Topped up")).toContainText("RM");
  await expect(page.getByRole("heading", { name: "Money in and out (RM)" })).toBeVisible();

  await switchLanguage(page, "中文");
  await expect(page.getByRole("heading", { name: "统计", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "资金流入与流出（RM）" })).toBeVisible();
  await expect(kpi(page, "充值金额")).toContainText("RM");
  for (const chart of CHARTS) {
    await expect(page.locator(`[data-chart="${chart}"] canvas`).first()).toBeVisible(CHART_LOAD);
  }
  await expect(page.getByText("statistic:", { exact: false })).toHaveCount(0);
  await switchLanguage(page, "English");
});

test("changing the range changes the figures", async ({ page }) => {
  const seen = answers(page);
  await logIn(page, server.url, superAdmin.email, superAdmin.password);
  await page.goto(`${server.url}/statistic`);
  const toppedUp = kpi(page, "Topped up").locator(".ant-statistic-content");
  await expect.poll(() => seen.length).toBeGreaterThan(0);
  const month = seen.at(-1)!;
  await expect(toppedUp).toHaveText(formatRinggit(month.totals.topUpSen.current));

  await page.getByText("7 days", { exact: true }).click();
  await expect.poll(() => seen.at(-1)?.from).not.toBe(month.from);
  const week = seen.at(-1)!;
  expect(week.totals.topUpSen.current).not.toBe(month.totals.topUpSen.current);
  await expect(toppedUp).toHaveText(formatRinggit(week.totals.topUpSen.current));
  await expect(page).toHaveURL(/preset=7days/);

  await page.getByText("Week", { exact: true }).click();
  await expect.poll(() => seen.at(-1)?.granularity).toBe("week");
  expect(seen.at(-1)!.series.length).toBeLessThanOrEqual(2);
});

test("a chart's CSV holds what the chart draws", async ({ page }) => {
  const seen = answers(page);
  await logIn(page, server.url, superAdmin.email, superAdmin.password);
  await page.goto(`${server.url}/statistic?preset=7days&granularity=day`);
  const panel = page.locator("section").filter({
    has: page.getByRole("heading", { name: "Money in and out (RM)" }),
  });
  await expect(panel.locator("canvas").first()).toBeVisible(CHART_LOAD);
  await expect.poll(() => seen.length).toBeGreaterThan(0);
  const drawn = seen.at(-1)!;

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    panel.getByRole("button", { name: /^CSV/ }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`statistic-money-${drawn.from}-${drawn.to}.csv`);
  const csv = (await readFile((await download.path())!, "utf8")).replace(/^\uFEFF/, "");
  const [header, ...lines] = csv.trimEnd().split("\r\n");
  expect(header).toBe("Day,Topped up,Paid to merchants,Refunded,Settled to merchants");
  const ringgit = (sen: number) => (sen / 100).toFixed(2);
  expect(lines).toEqual(
    drawn.series.map((bucket) =>
      [
        bucket.bucket,
        ringgit(bucket.topUpSen),
        ringgit(bucket.paymentSen),
        ringgit(bucket.refundSen),
        ringgit(bucket.settlementSen),
      ].join(","),
    ),
  );

  // Read as a table, the chart shows the same rows.
  await panel.getByText("Table", { exact: true }).click();
  const rows = panel.locator(".ant-table-tbody tr.ant-table-row");
  await expect(rows).toHaveCount(drawn.series.length);
  for (const [index, bucket] of drawn.series.entries()) {
    await expect(rows.nth(index).locator("td").nth(1)).toHaveText(formatRinggit(bucket.topUpSen));
    await expect(rows.nth(index).locator("td").nth(2)).toHaveText(formatRinggit(bucket.paymentSen));
  }
});

/** The dashboard's card of queues. */
const queues = (page: Page) =>
  page
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: "Waiting for a decision" }) });

test("the user desk's dashboard shows only the user queues; a super administrator's every queue and the trend", async ({
  page,
}) => {
  await logIn(page, server.url, desk.email, desk.password);
  await expect(queues(page).getByRole("link")).toHaveText([
    /User approvals/,
    /Contact changes/,
    /Rider verifications/,
  ]);
  await expect(page.getByText("Business approvals")).toHaveCount(0);
  await expect(page.getByRole("heading", { name: /last 14 days/ })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Today" })).toHaveCount(0);
  await page.getByRole("button", { name: "Logout" }).click();

  await logIn(page, server.url, superAdmin.email, superAdmin.password);
  await expect(queues(page).getByRole("link")).toHaveText([
    /User approvals/,
    /Contact changes/,
    /Rider verifications/,
    /Business approvals/,
    /Business updates/,
    /Open user reports/,
    /Red reconciled days/,
  ]);
  const trend = page
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: /last 14 days/ }) });
  await expect(trend.locator("svg polyline")).toHaveCount(2);
  await queues(page)
    .getByRole("link", { name: /Business updates/ })
    .click();
  await expect(page).toHaveURL(/\/business-update\?.*status.*pending/);
});
