/**
 * Receipts (issue 37, item 3) against the real started server: staff credit a counter top-up,
 * print its receipt (a PDF download) and e-mail it to the holder (the outbox holds it); then they
 * reverse it, a second administrator approves, and the reversal's own receipt prints.
 */
import { readFile } from "node:fs/promises";

import type { Download, Page } from "@playwright/test";

import type { PendingApprovalAnswer } from "../../src/shared/kit/four-eyes";
import { pdfText } from "../support/pdf";
import { logIn } from "./support/console";
import { expect, test } from "./support/fixtures";
import { apiAs, roomyAccount, type Login } from "./support/money";
import { newestMailTo } from "./support/outbox";
import { e2ePort } from "./support/ports";
import { demoLogins, startServer, type RunningServer } from "./support/server";

const PORT = e2ePort(180);
let server: RunningServer;
let finance: Login;
let approver: Login;

test.beforeAll(async () => {
  server = await startServer({
    port: PORT,
    env: process.env.DIST_DIR ? { DIST_DIR: process.env.DIST_DIR } : {},
  });
  const logins = demoLogins(server.output());
  const financeLogin = logins.get("finance");
  if (!financeLogin) throw new Error(`no demo logins printed:\n${server.output()}`);
  finance = financeLogin;
  approver = logins.get("second super administrator") ?? {
    email: "approver@wallet.example",
    password: "Approver#2026",
  };
});

test.afterAll(async () => {
  await server?.stop();
});

/** Clicks `button` and answers the PDF it downloads: its file name and its text. */
async function downloaded(page: Page, click: () => Promise<void>) {
  const download: Promise<Download> = page.waitForEvent("download");
  await click();
  const file = await download;
  const bytes = await readFile((await file.path())!);
  expect(bytes.subarray(0, 4).toString()).toBe("%PDF");
  return { name: file.suggestedFilename(), text: await pdfText(bytes) };
}

test("a counter top-up's receipt is printed and e-mailed; its reversal has its own receipt", async ({
  page,
}) => {
  const account = await roomyAccount(server, finance);
  await logIn(page, server.url, finance.email, finance.password);
  await page.getByRole("navigation").getByRole("link", { name: "Top Up Transaction" }).click();
  await page.getByRole("button", { name: "Counter top-up" }).click();
  await page.getByLabel("Account number").fill(account);
  await page.getByLabel("Amount").fill("12.34");
  await page.getByRole("button", { name: "Top up" }).click();
  await page
    .getByRole("dialog", { name: "Credit this top-up?" })
    .getByRole("button", { name: "Top up" })
    .click();
  await expect(page).toHaveURL(/\/top-up-transaction\/\d+$/);
  const credited = page.getByText(/^Top-up TU\w+ was credited\.$/);
  await expect(credited).toBeVisible();
  const reference = /(TU\w+)/.exec((await credited.textContent())!)![1]!;
  const id = Number(/\/(\d+)$/.exec(page.url())![1]);

  // Printed at the counter: the receipt's PDF, named by its number.
  const receipt = await downloaded(page, () =>
    page.getByRole("button", { name: "Print receipt" }).click(),
  );
  expect(receipt.name).toBe(`RC-${reference}.pdf`);
  expect(receipt.text).toContain(`RC-${reference}`);
  expect(receipt.text).toContain(account);
  expect(receipt.text).toContain("RM 12.34");
  expect(receipt.text).toContain("Finance");
  // No reversal yet: no reversal receipt to print.
  await expect(page.getByRole("button", { name: "Print reversal receipt" })).toHaveCount(0);

  // E-mailed to the holder, who finds it in their mail.
  await page.getByRole("button", { name: `E-mail receipt of top-up ${reference}` }).click();
  const confirm = page.getByRole("dialog", { name: `E-mail the receipt of top-up ${reference}?` });
  await confirm.getByRole("button", { name: "E-mail receipt" }).click();
  const sent = page.getByText(new RegExp(`^Receipt RC-${reference} was e-mailed to (\\S+)\\.$`));
  await expect(sent).toBeVisible();
  const email = /e-mailed to (\S+)\.$/.exec((await sent.textContent())!)![1]!;
  const mail = newestMailTo(server.dataDir, email);
  expect(mail.subject).toBe(`Your UCSI Wallet receipt RC-${reference}`);
  expect(mail.text).toContain("RM 12.34");

  // Reversed: it waits for a second approver, who agrees.
  await page.getByRole("button", { name: `Reverse top-up ${reference}` }).click();
  const dialog = page.getByRole("dialog", { name: `Reverse top-up ${reference}?` });
  await dialog.getByRole("textbox", { name: "Remark" }).fill("Keyed in the wrong amount");
  const answered = page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname.endsWith(`/api/top-up-transactions/${id}/reverse`) &&
      response.status() === 202,
  );
  await dialog.getByRole("button", { name: "Reverse" }).click();
  const { changeRequest } = (await (await answered).json()) as PendingApprovalAnswer;
  const decided = await apiAs<{ status: string }>(
    server,
    approver,
    `/api/change-requests/${changeRequest.id}`,
    { method: "PATCH", body: { action: "approve", remark: "Checked against the till roll" } },
  );
  expect(decided.status).toBe("approved");
  await page.reload();
  await expect(
    page.locator(".ant-descriptions").getByText("Reversed", { exact: true }),
  ).toBeVisible();

  // The reversal's own receipt; the top-up's still prints, marked reversed.
  const reversal = await downloaded(page, () =>
    page.getByRole("button", { name: "Print reversal receipt" }).click(),
  );
  expect(reversal.name).toBe(`RC-RV${reference}.pdf`);
  expect(reversal.text).toContain("Reversal receipt");
  expect(reversal.text).toContain("-RM 12.34");
  expect(reversal.text).toContain(`RC-${reference}`);
  const again = await downloaded(page, () =>
    page.getByRole("button", { name: "Print receipt" }).click(),
  );
  expect(again.name).toBe(`RC-${reference}.pdf`);
  expect(again.text).toContain("REVERSED");
  expect(again.text).toContain(`RC-RV${reference}`);
});
