/**
 * Four eyes (maker-checker), against the real started server: finance makes a counter top-up
 * above the wallet policy's threshold (RM 200), which is sent for approval instead of credited;
 * finance cannot approve its own request; the finance checker finds it under Pending approvals,
 * approves it with a remark, and the top-up is then in the top-up list.
 */
import { logIn, logOut } from "./support/console";
import { expect, test } from "./support/fixtures";
import { e2ePort } from "./support/ports";
import { roomyAccount, topUpsOf as topUpsOfAccount, type Login } from "./support/money";
import { demoLogins, startServer, type RunningServer } from "./support/server";

const PORT = e2ePort(145);
let server: RunningServer;
let finance: Login;
let checker: Login;

test.describe.configure({ mode: "serial" });

const topUpsOf = (accountNumber: string) => topUpsOfAccount(server, finance, accountNumber);

test.beforeAll(async () => {
  server = await startServer({
    port: PORT,
    env: process.env.DIST_DIR ? { DIST_DIR: process.env.DIST_DIR } : {},
  });
  const logins = demoLogins(server.output());
  finance = logins.get("finance") ?? {
    email: "finance@wallet.example",
    password: "Finance#2026",
  };
  checker = logins.get("finance checker") ?? {
    email: "checker@wallet.example",
    password: "Checker#2026",
  };
});

test.afterAll(async () => {
  await server?.stop();
});

test("a counter top-up above RM 200 waits for the checker, who approves it; its maker cannot", async ({
  page,
}) => {
  const account = await roomyAccount(server, finance);
  const before = await topUpsOf(account);

  // Finance: the form says when a top-up waits, and asks the approver's reason only then.
  await logIn(page, server.url, finance.email, finance.password);
  await page.getByRole("navigation").getByRole("link", { name: "Top Up Transaction" }).click();
  await page.getByRole("button", { name: "Counter top-up" }).click();
  await expect(
    page.getByText("Above RM 200.00 this change waits for a second approver."),
  ).toBeVisible();
  await page.getByLabel("Account number").fill(account);
  await page.getByLabel("Amount").fill("300");
  await expect(
    page.getByText("This amount, RM 300.00, is above RM 200.00: it waits for a second approver."),
  ).toBeVisible();
  await page.getByRole("button", { name: "Top up" }).click();
  await expect(page.getByText("Please give the approver a reason.")).toBeVisible();
  await page.getByLabel("Reason for the approver").fill("Cash paid at the counter, receipt 0042");
  await page.getByRole("button", { name: "Top up" }).click();
  const review = page.getByRole("dialog", { name: "Credit this top-up?" });
  await review.getByRole("button", { name: "Top up" }).click();

  const toast = page.getByText(
    /^Sent for approval as (CR\w+): another administrator must approve it\.$/,
  );
  await expect(toast).toBeVisible();
  const reference = /as (CR\w+):/.exec((await toast.textContent()) ?? "")![1]!;
  await expect(page).toHaveURL(/\/top-up-transaction(\?|$)/);
  // Nothing was credited yet.
  expect(await topUpsOf(account)).toEqual(before);

  // Its maker sees it among their own requests, with no Approve button.
  await page
    .getByRole("navigation")
    .getByRole("link", { name: /^Pending approvals/ })
    .click();
  await expect(page.getByRole("heading", { name: "Pending approvals" })).toBeVisible();
  await page.getByText("Mine", { exact: true }).click();
  const own = page.getByRole("row").filter({ hasText: reference });
  await expect(own).toBeVisible();
  await expect(own.getByText("Top Up Transaction", { exact: true })).toBeVisible();
  await expect(own.getByText("Counter top-up", { exact: true })).toBeVisible();
  await expect(
    own.getByRole("button", { name: `Withdraw change request ${reference}` }),
  ).toBeVisible();
  await expect(
    own.getByRole("button", { name: `Approve change request ${reference}` }),
  ).toHaveCount(0);
  await own.getByRole("link", { name: reference }).click();
  await expect(page.getByRole("heading", { name: reference })).toBeVisible();
  const details = page.locator(".ant-descriptions");
  await expect(details.getByText("Cash paid at the counter, receipt 0042")).toBeVisible();
  await expect(details.getByText("RM 300.00", { exact: true }).first()).toBeVisible();
  await expect(
    page.getByRole("button", { name: `Approve change request ${reference}` }),
  ).toHaveCount(0);
  await logOut(page);

  // The checker: the menu counts what waits for them; they approve it with a remark.
  await logIn(page, server.url, checker.email, checker.password);
  await expect(page.getByRole("link", { name: /Waiting for your approval [1-9]/ })).toBeVisible();
  await expect(
    page
      .getByRole("navigation")
      .getByRole("link", { name: /^Pending approvals \(\d+ waiting for your approval\)$/ }),
  ).toBeVisible();
  await page
    .getByRole("navigation")
    .getByRole("link", { name: /^Pending approvals/ })
    .click();
  const row = page.getByRole("row").filter({ hasText: reference });
  await expect(row).toBeVisible();
  await row.getByRole("button", { name: `Approve change request ${reference}` }).click();
  const dialog = page.getByRole("dialog", { name: `Approve change request ${reference}?` });
  await dialog.getByRole("textbox", { name: "Remark" }).fill("Receipt checked");
  await dialog.getByRole("button", { name: "Approve" }).click();
  await expect(dialog).toBeHidden();
  await expect(
    page.getByText(`Change request ${reference} was approved and the change applied.`),
  ).toBeVisible();

  // The top-up is credited now, and listed.
  const after = await topUpsOf(account);
  expect(after).toHaveLength(before.length + 1);
  expect(after[0]).toMatchObject({ accountNumber: account, amountSen: 30_000 });
  await page.getByRole("navigation").getByRole("link", { name: "Top Up Transaction" }).click();
  await page.getByRole("searchbox", { name: "Search top-ups" }).fill(account);
  await page.getByRole("searchbox", { name: "Search top-ups" }).press("Enter");
  await expect(
    page.getByRole("row").filter({ hasText: account }).filter({ hasText: "RM 300.00" }).first(),
  ).toBeVisible();
});
