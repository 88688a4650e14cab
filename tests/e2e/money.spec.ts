/**
 * Money, part 1 (issue 11), against the real started server: a counter top-up beyond the wallet
 * policy shows the translated reason and credits nothing; a counter top-up within it is credited
 * and can be reversed with a remark; changing the policy's dormancy period, reviewed old → new,
 * changes what the Dormant Account list shows. A reversal and a new policy wait for a second
 * approver (four eyes, docs/four-eyes.md): the second super administrator approves each through
 * the API, and only then is it applied.
 */
import type { Page } from "@playwright/test";

import type { PendingApprovalAnswer } from "../../src/shared/kit/four-eyes";
import { formatRinggit } from "../../src/shared/money";
import { pdfText } from "../support/pdf";
import { logIn } from "./support/console";
import { expect, test } from "./support/fixtures";
import { e2ePort } from "./support/ports";
import { apiAs, roomyAccount, topUpsOf as topUpsOfAccount, type Login } from "./support/money";
import { demoLogins, startServer, type RunningServer } from "./support/server";

const PORT = e2ePort(85);
let server: RunningServer;
let finance: Login;
let superAdmin: Login;
let approver: Login;

test.describe.configure({ mode: "serial" });

const api = <T>(login: Login, path: string, init?: { method?: string; body?: unknown }) =>
  apiAs<T>(server, login, path, init);

/**
 * The change request a change sent from the page became: the 202 answer of the request whose URL
 * matches `url`, and the toast naming its reference (locales/en-US/kit.json, fourEyes.pending).
 */
async function sentForApproval(page: Page, url: RegExp, send: () => Promise<void>) {
  const answered = page.waitForResponse(
    (response) => url.test(new URL(response.url()).pathname) && response.status() === 202,
  );
  await send();
  const { changeRequest } = (await (await answered).json()) as PendingApprovalAnswer;
  await expect(
    page.getByText(
      `Sent for approval as ${changeRequest.reference}: another administrator must approve it.`,
    ),
  ).toBeVisible();
  return changeRequest;
}

/** The second super administrator approves a change request, as Pending approvals would. */
async function approveAsApprover(id: number, remark: string) {
  const decided = await api<{ status: string }>(approver, `/api/change-requests/${id}`, {
    method: "PATCH",
    body: { action: "approve", remark },
  });
  expect(decided.status).toBe("approved");
}

const topUpsOf = (accountNumber: string) => topUpsOfAccount(server, finance, accountNumber);

/** The holder's name of an account, as the counter top-up's look-up answers it. */
const holderOf = async (accountNumber: string) =>
  (
    await api<{ name: string }>(
      finance,
      `/api/top-up-transactions/account-holder?accountNumber=${accountNumber}`,
    )
  ).name;

test.beforeAll(async () => {
  server = await startServer({
    port: PORT,
    env: process.env.DIST_DIR ? { DIST_DIR: process.env.DIST_DIR } : {},
  });
  const logins = demoLogins(server.output());
  const financeLogin = logins.get("finance");
  const superLogin = logins.get("super administrator");
  if (!financeLogin || !superLogin) throw new Error(`no demo logins printed:\n${server.output()}`);
  finance = financeLogin;
  superAdmin = superLogin;
  approver = logins.get("second super administrator") ?? {
    email: "approver@wallet.example",
    password: "Approver#2026",
  };
});

test.afterAll(async () => {
  await server?.stop();
});

test("a counter top-up beyond the policy shows the reason and credits nothing; one within it is credited and can be reversed", async ({
  page,
}) => {
  const account = await roomyAccount(server, finance);
  const before = await topUpsOf(account);

  await logIn(page, server.url, finance.email, finance.password);
  await page.getByRole("navigation").getByRole("link", { name: "Top Up Transaction" }).click();
  await expect(page.getByRole("heading", { name: "Top Up Transaction" })).toBeVisible();
  await page.getByRole("button", { name: "Counter top-up" }).click();
  await expect(page.getByRole("heading", { name: "Counter top-up" })).toBeVisible();
  await expect(page.getByText("The wallet policy in force")).toBeVisible();

  // Typed rules are checked before anything is sent.
  await page.getByRole("button", { name: "Top up" }).click();
  await expect(page.getByText("Account number is required.")).toBeVisible();
  await expect(page.getByText("Amount is required.")).toBeVisible();

  // Whose wallet it is shows once typed, and the confirmation names them and the amount.
  await page.getByLabel("Account number").fill(account);
  const holder = await holderOf(account);
  await expect(page.getByText(holder, { exact: true })).toBeVisible();
  await page.getByLabel("Amount").fill("600");
  // Above the policy's RM 200 a top-up would wait for a second approver: it asks why.
  await page.getByLabel("Reason for the approver").fill("Parent paid at the counter");
  await page.getByRole("button", { name: "Top up" }).click();
  const review = page.getByRole("dialog", { name: "Credit this top-up?" });
  await expect(review).toContainText(`Credit RM 600.00 to ${holder} (${account})?`);
  await review.getByRole("button", { name: "Top up" }).click();
  const refusal = page.getByRole("alert").filter({ hasText: "nothing was credited" });
  await expect(refusal).toContainText("A top-up can be at most RM 500.00 (wallet policy).");
  await expect(page).toHaveURL(/\/top-up-transaction\/create$/);
  expect(await topUpsOf(account)).toEqual(before);

  await page.getByLabel("Amount").fill("12.34");
  await expect(refusal).toBeHidden();
  await page.getByRole("button", { name: "Top up" }).click();
  await expect(review).toContainText(`Credit RM 12.34 to ${holder} (${account})?`);
  await review.getByRole("button", { name: "Top up" }).click();
  await expect(page).toHaveURL(/\/top-up-transaction\/\d+$/);
  await expect(page.getByText(/^Top-up TU\w+ was credited\.$/)).toBeVisible();
  const details = page.locator(".ant-descriptions");
  await expect(details.getByText("RM 12.34")).toBeVisible();
  await expect(details.getByText("Counter", { exact: true })).toBeVisible();
  await expect(details.getByText("Successful")).toBeVisible();
  const after = await topUpsOf(account);
  expect(after).toHaveLength(before.length + 1);
  expect(after[0]).toMatchObject({ accountNumber: account, amountSen: 1234 });

  // The reversal asks why; its remark is the approver's reason. It waits for a second approver.
  await page.getByRole("button", { name: /^Reverse top-up TU/ }).click();
  const dialog = page.getByRole("dialog", { name: /^Reverse top-up TU\w+\?$/ });
  await expect(
    dialog.getByText("This change waits for a second approver before it is applied."),
  ).toBeVisible();
  await dialog.getByRole("button", { name: "Reverse" }).click();
  await expect(dialog.getByText("Please enter a remark.")).toBeVisible();
  await dialog.getByRole("textbox", { name: "Remark" }).fill("Keyed in the wrong amount");
  const reversal = await sentForApproval(page, /\/api\/top-up-transactions\/\d+\//, () =>
    dialog.getByRole("button", { name: "Reverse" }).click(),
  );
  await expect(dialog).toBeHidden();
  // Nothing is taken back before the approver agrees.
  await expect(details.getByText("Successful")).toBeVisible();

  // The second super administrator approves it; then the money is taken back.
  await approveAsApprover(reversal.id, "Checked against the till roll");
  await page.reload();
  await expect(details.getByText("Reversed", { exact: true })).toBeVisible();
  await expect(details.getByText("Keyed in the wrong amount")).toBeVisible();
  await expect(details.getByText(/^RVTU\w+$/)).toBeVisible();
  await expect(page.getByRole("button", { name: /^Reverse top-up/ })).toHaveCount(0);
});

test("changing the policy, reviewed old → new, changes what the Dormant Account list shows", async ({
  page,
}) => {
  await logIn(page, server.url, superAdmin.email, superAdmin.password);
  await page.goto(`${server.url}/dormant-account`);
  const total = page.getByText(/^[\d,]+\+? dormant accounts$/);
  await expect(total).toBeVisible();
  const dormantBefore = Number((await total.textContent())!.replace(/\D/g, ""));

  await page.getByRole("navigation").getByRole("link", { name: "Wallet Policy" }).click();
  await expect(page.getByRole("heading", { name: "Wallet Policy" })).toBeVisible();
  await expect(page.getByText("365", { exact: true }).first()).toBeVisible();
  await page.getByRole("button", { name: "Change policy" }).click();
  await expect(page.getByLabel("Dormancy period (days)")).toHaveValue("365");

  // A new policy always waits for a second approver, who reads why it is needed: nothing is sent
  // without that reason.
  await expect(
    page.getByText("This change waits for a second approver before it is applied."),
  ).toBeVisible();
  await page.getByLabel("Minimum top-up").fill("600");
  await page.getByRole("button", { name: "Save the new policy" }).click();
  await expect(page.getByText("Please give the approver a reason.")).toBeVisible();
  await page.getByLabel("Reason for the approver").fill("The auditors asked for 30 days");

  // A minimum above the maximum is refused under the input, before anything is sent.
  await page.getByRole("button", { name: "Save the new policy" }).click();
  await expect(
    page.getByText("Minimum top-up must not be more than Maximum top-up."),
  ).toBeVisible();
  await page.getByLabel("Minimum top-up").fill("5");

  await page.getByLabel("Dormancy period (days)").fill("30");
  await page.getByLabel("Reason for the change").fill("Shorter dormancy for the audit");
  await page.getByRole("button", { name: "Save the new policy" }).click();
  const review = page.getByRole("dialog", { name: "Check the changes" });
  const changed = review.getByRole("row").filter({ hasText: "Dormancy period (days)" });
  await expect(changed).toContainText("365");
  await expect(changed).toContainText("30");
  await expect(changed).toContainText("Changed");
  await expect(review.getByRole("row").filter({ hasText: "Minimum top-up" })).not.toContainText(
    "Changed",
  );
  const change = await sentForApproval(page, /\/api\/wallet-policies$/, () =>
    review.getByRole("button", { name: "Save the new policy" }).click(),
  );

  await expect(page).toHaveURL(/\/wallet-policy(\?|$)/); // the list adds its page and sort
  // Not in force before the approver agrees.
  await expect(page.getByRole("cell", { name: "Shorter dormancy for the audit" })).toHaveCount(0);
  await approveAsApprover(change.id, "Agreed with the auditors");
  await page.reload();
  await expect(page.getByRole("cell", { name: "Shorter dormancy for the audit" })).toBeVisible();

  await page.getByRole("navigation").getByRole("link", { name: "Dormant Account" }).click();
  await expect(total).toBeVisible();
  await expect
    .poll(async () => Number((await total.textContent())!.replace(/\D/g, "")))
    .toBeGreaterThan(dormantBefore);
});

test("approving a business puts it to work; its fee rate changes and it can be suspended", async ({
  page,
}) => {
  await logIn(page, server.url, superAdmin.email, superAdmin.password);
  await page.goto(`${server.url}/business-approval`);
  await expect(page.getByRole("heading", { name: "Business Approval" })).toBeVisible();
  const row = page.locator(".ant-table-row").filter({ hasText: "Bubble Tea Stall" });
  await row.getByRole("button", { name: "Approve Bubble Tea Stall" }).click();
  const approve = page.getByRole("dialog", { name: "Approve Bubble Tea Stall?" });
  await expect(approve.getByText("can take payments from wallets at once")).toBeVisible();
  await approve.getByRole("textbox", { name: "Remark" }).fill("Documents checked");
  await approve.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText("Bubble Tea Stall was approved.")).toBeVisible();
  await expect(row).toHaveCount(0);

  await page.getByRole("navigation").getByRole("link", { name: "Business", exact: true }).click();
  // The approval list stays on screen until the business list has loaded: wait for it.
  await expect(page).toHaveURL(/\/business-mgmt/);
  await expect(page.getByRole("heading", { name: "Business", exact: true })).toBeVisible();
  await page.getByRole("searchbox", { name: "Search businesses" }).fill("Bubble Tea");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const listed = page.locator(".ant-table-row").filter({ hasText: "Bubble Tea Stall" });
  await expect(listed.getByText("Approved")).toBeVisible();
  await listed.getByRole("link", { name: "Bubble Tea Stall" }).click();
  const details = page.locator(".ant-descriptions");
  await expect(details.getByText("Documents checked")).toBeVisible();
  await expect(details.getByText(/^•••• \d{4}$/)).toBeVisible();

  await page.getByRole("button", { name: "Edit" }).click();
  await expect(page.getByLabel("Fee rate")).toHaveValue("2.00");
  await page.getByLabel("Fee rate").fill("101");
  await page.getByRole("button", { name: "Save the fee rate" }).click();
  await expect(page.getByText("Fee rate must be at most 100.00%.")).toBeVisible();
  await page.getByLabel("Fee rate").fill("2.5");
  await page.getByRole("button", { name: "Save the fee rate" }).click();
  await expect(page.getByText("The fee rate of Bubble Tea Stall was saved.")).toBeVisible();
  await expect(details.getByText("2.50%")).toBeVisible();

  await page.getByRole("button", { name: "Suspend Bubble Tea Stall" }).click();
  const suspend = page.getByRole("dialog", { name: "Suspend Bubble Tea Stall?" });
  await suspend.getByRole("textbox", { name: "Remark" }).fill("Hygiene inspection due");
  await suspend.getByRole("button", { name: "Suspend" }).click();
  await expect(details.getByText("Suspended", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Reinstate Bubble Tea Stall" })).toBeVisible();

  // Each change is on the business's history, newest first.
  const history = page
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: "History" }) });
  const rows = history.getByRole("row");
  await expect(rows.filter({ hasText: "Hygiene inspection due" })).toContainText("Suspended");
  await expect(rows.filter({ hasText: "Fee rate changed" })).toContainText("2.00%");
  // The oldest entry: the approval (the suspension's changes also name its remark).
  await expect(rows.filter({ hasText: "Documents checked" }).last()).toContainText("Approved");
});

test("approving a business update shows the new name on the business; a request it moved past is refused with the reason", async ({
  page,
}) => {
  await logIn(page, server.url, superAdmin.email, superAdmin.password);
  await page.goto(`${server.url}/business-update`);
  await expect(page.getByRole("heading", { name: "Business Update" })).toBeVisible();
  const row = page.locator(".ant-table-row").filter({ hasText: "Block A Canteen & Grill" });
  await row.getByRole("button", { name: "Approve the update of Block A Canteen" }).click();
  const approve = page.getByRole("dialog", { name: "Apply these changes to Block A Canteen?" });
  // The dialog says what changes, field by field: old → new.
  await expect(approve.getByRole("rowheader", { name: "Business" })).toBeVisible();
  await expect(approve.getByText("Block A Canteen & Grill")).toBeVisible();
  await approve.getByRole("textbox", { name: "Remark" }).fill("New signage checked");
  await approve.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText("The update of Block A Canteen was applied.")).toBeVisible();
  await expect(row).toHaveCount(0);

  // The business carries its new name, the change on its history, and its recent payments.
  await page.getByRole("navigation").getByRole("link", { name: "Business", exact: true }).click();
  await page.getByRole("searchbox", { name: "Search businesses" }).fill("Grill");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByRole("link", { name: "Block A Canteen & Grill" }).click();
  await expect(page.getByRole("heading", { name: "Block A Canteen & Grill" })).toBeVisible();
  const history = page
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: "History" }) });
  await expect(
    history.getByRole("row").filter({ hasText: "Changed by an update request" }),
  ).toContainText("New signage checked");
  const payments = page
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: "Recent payments" }) });
  await expect(payments.locator(".ant-table-row").first()).toContainText(/RM\s?\d/);
  await expect(payments.getByText(/^[\d,]+\+? payments$/)).toBeVisible();

  // A request sent under the business's old name: approving it is refused, and says why.
  await page.goto(`${server.url}/business-update`);
  const stale = page.locator(".ant-table-row").filter({ hasText: "Bean There Espresso Bar" });
  await stale.getByRole("button", { name: "Approve the update of Bean There Coffee" }).click();
  const refused = page.getByRole("dialog", { name: "Apply these changes to Bean There Coffee?" });
  await refused.getByRole("textbox", { name: "Remark" }).fill("Looks fine");
  await refused.getByRole("button", { name: "Approve" }).click();
  await expect(
    page.getByText("The business's name has changed since the merchant asked", { exact: false }),
  ).toBeVisible();
});

test("a finance administrator runs a settlement, opens its invoice, prints it without the menu and downloads its PDF", async ({
  page,
}) => {
  await logIn(page, server.url, finance.email, finance.password);
  const navigation = page.getByRole("navigation");
  await navigation.getByRole("menuitem", { name: "Settlement", exact: true }).click();
  await navigation.getByRole("link", { name: "Settlement Record" }).click();
  await expect(page.getByRole("heading", { name: "Settlement Record" })).toBeVisible();
  await page.getByRole("button", { name: "Run settlement" }).click();
  const dialog = page.getByRole("dialog", { name: "Run a settlement" });
  await dialog.getByRole("button", { name: "Run", exact: true }).click();
  // Up to yesterday: this week's payments, unless the demo's weekly run already covered them.
  await expect(
    page.getByText(/^(\d+ settlements? (was|were) created up to|Nothing was left to settle up to)/),
  ).toBeVisible();
  await expect(dialog).toBeHidden();

  // The newest settlement: its page, then its invoice.
  await page.locator(".ant-table-row").first().getByRole("link").first().click();
  await expect(page).toHaveURL(/\/settlement-details\/\d+$/);
  const id = Number(/\/settlement-details\/(\d+)$/.exec(page.url())![1]);
  const record = await api<{ invoiceNumber: string; netSen: number }>(
    finance,
    `/api/settlements/${id}`,
  );
  await page.getByRole("button", { name: "Invoice", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`\\?id=invoice&settlement=${id}$`));
  const sheet = page.getByRole("article");
  await expect(sheet.getByTestId("invoice-number")).toHaveText(record.invoiceNumber);
  const net = formatRinggit(record.netSen);
  await expect(sheet.getByTestId("invoice-net")).toHaveText(net);

  // Print opens the browser's dialog; on paper only the sheet is left.
  await page.evaluate(() => {
    (window as unknown as { printed: number }).printed = 0;
    window.print = () => {
      (window as unknown as { printed: number }).printed += 1;
    };
  });
  await page.getByRole("button", { name: "Print" }).click();
  expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("navigation")).toBeHidden();
  await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
  await expect(sheet.getByTestId("invoice-net")).toBeVisible();
  await page.emulateMedia({ media: "screen" });
  await expect(page.getByRole("navigation")).toBeVisible();

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download PDF" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${record.invoiceNumber}.pdf`);
  const bytes = Buffer.concat((await (await file.createReadStream()).toArray()) as Buffer[]);
  expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  const text = await pdfText(bytes);
  expect(text).toContain(record.invoiceNumber);
  expect(text).toContain(net);
});

test("the user desk gets the not-permitted page at /settlement-record and a 403 from the API", async ({
  page,
}) => {
  const desk = demoLogins(server.output()).get("user desk")!;
  await logIn(page, server.url, desk.email, desk.password);
  await page.goto(`${server.url}/settlement-record`);
  await expect(page.getByRole("heading", { name: "Access denied" })).toBeVisible();
  await page.goto(`${server.url}/settlement-record?id=invoice&settlement=1`);
  await expect(page.getByRole("heading", { name: "Access denied" })).toBeVisible();
  await expect(page.getByRole("navigation").getByText("Settlement")).toHaveCount(0);
  await expect(api(desk, "/api/settlements/aggregation")).rejects.toThrow(/: 403 /);
});

test("an unknown settlement's invoice says so instead of a blank sheet", async ({ page }) => {
  await logIn(page, server.url, finance.email, finance.password);
  await page.goto(`${server.url}/settlement-record?id=invoice&settlement=999999`);
  await expect(page.getByRole("heading", { name: "Invoice not found" })).toBeVisible();
  await expect(page.getByText("There is no settlement 999999.")).toBeVisible();
});
