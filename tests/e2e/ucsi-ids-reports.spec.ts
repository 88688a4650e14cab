/**
 * UCSI ID Management and User Report (issue 14), against the real started server: a CSV with two
 * bad rows is checked (the dry run lists them) and refused on import (nothing stored), then a
 * clean one is imported; a transaction dispute is resolved with a refund, and the reporter's
 * wallet balance shows it; finance follows every link of the reports' list and of a dispute's
 * page and never lands on Access denied (the reporter and the payment are text to it).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type { Locator, Page } from "@playwright/test";

import { formatRinggit } from "../../src/shared/money";
import { logIn } from "./support/console";
import { expect, test } from "./support/fixtures";
import { e2ePort } from "./support/ports";
import { demoLogins, startServer, type RunningServer } from "./support/server";

const PORT = e2ePort(93);
let server: RunningServer;
let superAdmin: { email: string; password: string };

test.describe.configure({ mode: "serial" });

async function api<T>(path: string): Promise<T> {
  const session = await fetch(`${server.url}/v1/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(superAdmin),
  });
  const { token } = (await session.json()) as { token: string };
  const answer = await fetch(`${server.url}/v1${path}`, { headers: { Authorization: token } });
  if (!answer.ok) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as T;
}

const listQuery = (filter: object, pageSize = 10) =>
  new URLSearchParams({
    filter: JSON.stringify(filter),
    pagination: JSON.stringify({ page: 1, pageSize }),
  }).toString();

/** Links of an ID, active or not. */
async function linksOf(ucsiId: string) {
  return (
    await api<{ ucsiIds: Array<{ ucsiId: string; status: string }> }>(
      `/api/ucsi-ids/aggregation?${listQuery({ ucsiId })}`,
    )
  ).ucsiIds;
}

function csvFile(name: string, rows: string[]) {
  const path = join(mkdtempSync(join(tmpdir(), "ucsi-import-")), name);
  writeFileSync(path, ["ucsi_id,type,account_number", ...rows].join("\r\n") + "\r\n");
  return path;
}

test.beforeAll(async () => {
  server = await startServer({
    port: PORT,
    env: process.env.DIST_DIR ? { DIST_DIR: process.env.DIST_DIR } : {},
  });
  const login = demoLogins(server.output()).get("super administrator");
  if (!login) throw new Error(`no demo logins printed:\n${server.output()}`);
  superAdmin = login;
});

test.afterAll(async () => {
  await server?.stop();
});

test("a CSV with two bad rows is listed by the dry run and stores nothing; a clean one is imported", async ({
  page,
}) => {
  // Public users hold no UCSI ID in the demo data.
  const { users } = await api<{ users: Array<{ accountNumber: string }> }>(
    `/api/users/aggregation?${listQuery({ role: "public", approvalStatus: "approved" }, 2)}`,
  );
  const [first, second] = users.map((user) => user.accountNumber);
  const ids = ["1009990001", "S99901"];
  const bad = csvFile("with-problems.csv", [
    `${ids[0]},student,${first}`,
    "12AB,student,W100000001",
    `1009990002,student,W999999999`,
  ]);
  const clean = csvFile("clean.csv", [`${ids[0]},student,${first}`, `${ids[1]},staff,${second}`]);

  await logIn(page, server.url, superAdmin.email, superAdmin.password);
  await page.getByRole("navigation").getByRole("link", { name: "UCSI ID Management" }).click();
  await expect(page.getByRole("heading", { name: "UCSI ID Management" })).toBeVisible();
  await page.getByRole("button", { name: "Import CSV" }).click();
  const dialog = page.getByRole("dialog", { name: "Import UCSI IDs from a CSV file" });
  await dialog.locator('input[type="file"]').setInputFiles(bad);
  await expect(dialog.getByText("File: with-problems.csv")).toBeVisible();

  await dialog.getByRole("button", { name: "Check the file" }).click();
  await expect(dialog.getByText("3 rows: 1 ready, 2 with problems.")).toBeVisible();
  await expect(dialog.getByRole("row").filter({ hasText: "Bad format" })).toContainText("12AB");
  await expect(dialog.getByRole("row").filter({ hasText: "Unknown account" })).toContainText(
    "W999999999",
  );

  // The checked file is not offered for import; chosen again anyway, the server refuses it whole.
  const importButton = dialog.getByRole("button", { name: "Import", exact: true });
  await expect(importButton).toBeDisabled();
  await dialog.locator('input[type="file"]').setInputFiles(bad);
  await importButton.click();
  await expect(dialog.getByRole("alert")).toContainText(
    "Nothing was imported: 2 of 3 rows have problems.",
  );
  await expect(importButton).toBeDisabled();
  expect(await linksOf(ids[0]!)).toEqual([]);

  await dialog.locator('input[type="file"]').setInputFiles(clean);
  await dialog.getByRole("button", { name: "Check the file" }).click();
  await expect(dialog.getByText("2 rows: 2 ready, 0 with problems.")).toBeVisible();
  await importButton.click();
  await expect(page.getByText("2 UCSI IDs were linked.").first()).toBeVisible();
  await expect(importButton).toBeDisabled();
  await dialog.locator(".ant-modal-footer").getByRole("button", { name: "Close" }).click();

  await page.getByPlaceholder("UCSI ID, account number or name").fill(ids[1]!);
  await page.getByPlaceholder("UCSI ID, account number or name").press("Enter");
  const row = page.locator(".ant-table-row").filter({ hasText: ids[1]! });
  await expect(row).toContainText(second!);
  await expect(row).toContainText("Active");
  expect((await linksOf(ids[0]!)).map((link) => link.status)).toEqual(["active"]);
});

test("resolving a dispute with a refund credits the reporter's wallet", async ({ page }) => {
  const { userReports } = await api<{
    userReports: Array<{ id: number; reference: string; refundableSen: number | null }>;
  }>(`/api/user-reports/aggregation?${listQuery({ type: "transaction_dispute", status: "open" })}`);
  const report = userReports.find((candidate) => (candidate.refundableSen ?? 0) >= 200)!;
  expect(report, "an open dispute about a refundable payment").toBeDefined();

  await logIn(page, server.url, superAdmin.email, superAdmin.password);
  await page.goto(`${server.url}/user-report/${report.id}`);
  await expect(page.getByRole("heading", { name: report.reference })).toBeVisible();

  // The reporter's balance before, on their page (the report links to it).
  const details = page.locator(".ant-descriptions").first();
  await details.getByRole("link").first().click();
  await expect(page).toHaveURL(/\/user-details\/\d+$/);
  const balanceCell = page.locator(".ant-descriptions-item").filter({ hasText: "Balance" });
  const before = (await balanceCell.locator("strong").textContent())!;
  const beforeSen = Math.round(Number(before.replace(/[^\d.]/g, "")) * 100);
  await page.goBack();

  await page.getByRole("button", { name: `Start work on ${report.reference}` }).click();
  await expect(page.getByText(`Work on report ${report.reference} has started.`)).toBeVisible();
  // The toast sits over the page's buttons: closed, as staff would.
  await page.locator(".ant-notification-notice-close").click();
  await page.getByRole("button", { name: "Resolve" }).click();
  const dialog = page.getByRole("dialog", { name: `Resolve report ${report.reference}` });
  await dialog.getByLabel("Resolution note").fill("Double charge confirmed with the stall");
  await dialog.getByLabel("Refund to the reporter (optional)").fill("1.50");
  await dialog.getByRole("button", { name: "Resolve" }).click();
  await expect(
    page.getByText(`Report ${report.reference} was resolved and RM 1.50 was refunded.`),
  ).toBeVisible();
  await expect(
    page.locator(".ant-descriptions").getByText("Resolved", { exact: true }),
  ).toBeVisible();
  await expect(page.getByText(/^RF\w+$/)).toBeVisible();

  await details.getByRole("link").first().click();
  await expect(balanceCell.locator("strong")).toHaveText(formatRinggit(beforeSen + 150));
});

/**
 * Follows each link of `scope` in turn, coming back after each: every one opens a page of its
 * own (the page's `<h1>` changes), never Access denied.
 */
async function followEachLink(page: Page, scope: Locator) {
  const heading = page.getByRole("heading", { level: 1 });
  const links = scope.getByRole("link");
  const count = await links.count();
  for (let index = 0; index < count; index += 1) {
    const here = page.url();
    const title = (await heading.textContent())!;
    const link = links.nth(index);
    const name = (await link.textContent())!;
    await link.click();
    await expect(page).not.toHaveURL(here);
    await expect(heading).not.toHaveText(title);
    await expect(heading, `the link ${name}`).toBeVisible();
    await expect(heading, `the link ${name}`).not.toHaveText("Access denied");
    await page.goBack();
    await expect(heading).toHaveText(title);
  }
}

test("finance follows the links of the reports and of a dispute, never to Access denied", async ({
  page,
}) => {
  const finance = demoLogins(server.output()).get("finance");
  if (!finance) throw new Error(`no finance login printed:\n${server.output()}`);
  const { userReports } = await api<{
    userReports: Array<{
      id: number;
      reference: string;
      reporterAccountNumber: string;
      paymentReference: string | null;
    }>;
  }>(`/api/user-reports/aggregation?${listQuery({ type: "transaction_dispute" })}`);
  const dispute = userReports.find((candidate) => candidate.paymentReference !== null)!;
  expect(dispute, "a dispute about a payment").toBeDefined();

  await logIn(page, server.url, finance.email, finance.password);
  await page.getByRole("navigation").getByRole("link", { name: "User Report" }).click();
  await expect(page.getByRole("heading", { name: "User Report", level: 1 })).toBeVisible();
  const firstRow = page.locator(".ant-table-row").first();
  await expect(firstRow).toBeVisible();
  await followEachLink(page, firstRow);

  // The reporter and the payment lead to the users' pages, which finance may not open: text.
  await page.goto(`${server.url}/user-report/${dispute.id}`);
  await expect(page.getByRole("heading", { name: dispute.reference })).toBeVisible();
  const details = page.locator(".ant-descriptions").first();
  await expect(details.getByText(dispute.reporterAccountNumber, { exact: true })).toBeVisible();
  await expect(details.getByText(dispute.paymentReference!, { exact: true })).toBeVisible();
  await followEachLink(page, details);
});
