/**
 * Daily reconciliation, against the real started server on the demo campus: Finance opens
 * Settlement > Reconciliation, sees green days and the red ones, opens the red day still open,
 * reads its difference (the card channel's roll-up against the ledger), and marks it
 * investigated with a remark, which waits for a second approver (four eyes); the finance checker
 * approves it, and the day is investigated.
 */
import { logIn, logOut } from "./support/console";
import { type DemoLogin, expect, test, useSuperAdminServer } from "./support/fixtures";
import type { RunningServer } from "./support/server";

const suite = useSuperAdminServer(220);
let server: RunningServer;
let finance: DemoLogin;
let checker: DemoLogin;

test.describe.configure({ mode: "serial" });

test.beforeAll(() => {
  server = suite.server;
  finance = suite.login("finance");
  checker = suite.login("finance checker");
});

test("Finance finds the red day, reads its difference and marks it investigated; the checker approves", async ({
  page,
}) => {
  await logIn(page, server.url, finance.email, finance.password);
  // The dashboard shows the open red day.
  await expect(page.getByText("Red reconciled days to investigate")).toBeVisible();

  const navigation = page.getByRole("navigation");
  await navigation.getByRole("menuitem", { name: "Settlement", exact: true }).click();
  await navigation.getByRole("link", { name: "Reconciliation" }).click();
  await expect(page.getByRole("heading", { name: "Reconciliation" })).toBeVisible();
  await expect(page.getByText("Passed").first()).toBeVisible();
  const red = page.getByRole("row").filter({ hasText: "Red: to investigate" });
  await expect(red).toHaveCount(1);

  await red.getByRole("link").first().click();
  await expect(page).toHaveURL(/\/reconciliation-day\/\d+/);
  const topUps = page.locator('[data-check="topUps"]');
  await expect(topUps.getByText("Failed", { exact: true })).toBeVisible();
  await expect(topUps.getByText("Channel's top-ups unlike the roll-up")).toBeVisible();
  await expect(topUps.getByText("RM 20.00").first()).toBeVisible();
  await expect(
    page.locator('[data-check="walletBalances"]').getByText("Passed", { exact: true }),
  ).toBeVisible();

  await page.getByRole("button", { name: /^Mark investigated: \d{4}-\d{2}-\d{2}$/ }).click();
  const dialog = page.getByRole("dialog");
  await expect(
    dialog.getByText("This change waits for a second approver before it is applied."),
  ).toBeVisible();
  await dialog
    .getByRole("textbox")
    .first()
    .fill("The acquirer re-sent one card top-up; ledger right");
  await dialog.getByRole("button", { name: "Mark investigated" }).click();
  await expect(
    page.getByText(/^Sent for approval as (CR\w+): another administrator must approve it\.$/),
  ).toBeVisible();
  // Still red until approved.
  await page.reload();
  await expect(page.getByText("Red: to investigate")).toBeVisible();
  const dayUrl = page.url();
  await logOut(page);

  // The finance checker approves it under Pending approvals.
  await logIn(page, server.url, checker.email, checker.password);
  await page
    .getByRole("navigation")
    .getByRole("link", { name: /^Pending approvals/ })
    .click();
  const row = page.getByRole("row").filter({ hasText: "Reconciliation" }).first();
  await row.getByRole("button", { name: /^Approve/ }).click();
  const approval = page.getByRole("dialog");
  await approval.getByRole("textbox").first().fill("Checked against the acquirer's file");
  await approval.getByRole("button", { name: "Approve" }).click();
  await expect(approval).toBeHidden();
  await page.goto(dayUrl);
  await expect(page.getByText("Red: investigated").first()).toBeVisible();
  await expect(
    page.getByText("The acquirer re-sent one card top-up; ledger right").first(),
  ).toBeVisible();
});
