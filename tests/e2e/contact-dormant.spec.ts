/**
 * Change Contact and Dormant Account (issue 5), against the real started server: the dashboard
 * shows the pending figures and a click leads to the list; a user desk administrator (code 0)
 * approves a contact change with a remark (rejecting without one is refused) and the user's
 * detail shows the new value; the same administrator sees no Dormant Account entry, gets the
 * 403 page by URL and a 403 from the API; the super administrator sees the dormant list.
 */
import type { Page } from "@playwright/test";
import { logIn } from "./support/console";
import { expect, test } from "./support/fixtures";
import { e2ePort } from "./support/ports";
import { demoLogins, startServer, type RunningServer } from "./support/server";

const PORT = e2ePort(60);
let server: RunningServer;
let desk: { email: string; password: string };
let superAdmin: { email: string; password: string };

interface Submission {
  id: number;
  userId: number;
  userName: string;
  accountNumber: string;
  contactType: "email" | "phone";
  oldValue: string | null;
  newValue: string;
}
let target: Submission;

test.describe.configure({ mode: "serial" });

async function tokenOf(login: { email: string; password: string }): Promise<string> {
  const answer = await fetch(`${server.url}/v1/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(login),
  });
  return ((await answer.json()) as { token: string }).token;
}

test.beforeAll(async () => {
  server = await startServer({
    port: PORT,
    env: process.env.DIST_DIR ? { DIST_DIR: process.env.DIST_DIR } : {},
  });
  const logins = demoLogins(server.output());
  const deskLogin = logins.get("user desk");
  const superLogin = logins.get("super administrator");
  if (!deskLogin || !superLogin) throw new Error(`no demo logins printed:\n${server.output()}`);
  desk = deskLogin;
  superAdmin = superLogin;

  // A pending phone change (phones need not be unique, so approving it cannot meet EMAIL_TAKEN).
  const query = new URLSearchParams({
    filter: JSON.stringify({ status: "pending", contactType: "phone" }),
    pagination: JSON.stringify({ page: 1, pageSize: 1 }),
  });
  const list = await fetch(`${server.url}/v1/api/change-contact-submissions?${query.toString()}`, {
    headers: { Authorization: await tokenOf(desk) },
  });
  const body = (await list.json()) as { changeContactSubmissions?: Submission[] };
  const found = body.changeContactSubmissions?.[0];
  if (!found) throw new Error(`no pending phone change: ${list.status} ${JSON.stringify(body)}`);
  target = found;
});

test.afterAll(async () => {
  await server?.stop();
});

/** The dashboard's card of pending work. */
const pendingCard = (page: Page) =>
  page
    .locator("section, .ant-card")
    .filter({ has: page.getByText("Waiting for a decision", { exact: true }) })
    .first();

test("the dashboard shows the pending figures, and Contact changes leads to the pending list", async ({
  page,
}) => {
  await logIn(page, server.url, desk.email, desk.password);
  const pending = pendingCard(page);
  await expect(pending.getByText("User approvals")).toBeVisible();
  await expect(pending.getByText("Rider verifications")).toBeVisible();
  await pending.getByRole("link", { name: /Contact changes/ }).click();
  await expect(page).toHaveURL(/\/user-change-contact\?.*status.*pending/);
  await expect(page.getByRole("heading", { name: "Change Contact" })).toBeVisible();
  await expect(page.locator(".ant-table-row").first()).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Status" })).toBeVisible();
});

test("Rider verifications leads to the riders whose verification is pending", async ({ page }) => {
  await logIn(page, server.url, desk.email, desk.password);
  await pendingCard(page)
    .getByRole("link", { name: /Rider verifications/ })
    .click();
  await expect(page).toHaveURL(/\/user-mgmt\?.*riderVerification.*pending/);
  const rows = page.locator(".ant-table-row");
  await expect(rows.first()).toBeVisible();
  await expect(rows.filter({ hasNotText: "Rider" })).toHaveCount(0);
  const filter = page
    .locator(".ant-select")
    .filter({ has: page.getByRole("combobox", { name: "Filter by rider verification" }) });
  await expect(filter).toContainText("Pending");
});

test("approving a contact change needs a remark, and the user's contact changes", async ({
  page,
}) => {
  await logIn(page, server.url, desk.email, desk.password);
  await page.goto(`${server.url}/user-change-contact`);
  await page.getByRole("searchbox", { name: "Search submissions" }).fill(target.accountNumber);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const row = page.locator(".ant-table-row").filter({ hasText: target.newValue });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("link", { name: target.userName })).toHaveAttribute(
    "href",
    `/user-details/${target.userId}`,
  );
  if (target.oldValue) await expect(row.getByText(target.oldValue)).toBeVisible();

  // Rejecting without a remark is refused, and nothing is sent.
  await row.getByRole("button", { name: `Reject the change for ${target.userName}` }).click();
  const reject = page.getByRole("dialog", {
    name: `Reject the contact change of ${target.userName}?`,
  });
  await reject.getByRole("button", { name: "Reject" }).click();
  await expect(reject.getByText("Please enter a remark.")).toBeVisible();
  await reject.getByRole("button", { name: "Cancel" }).click();
  await expect(reject).toBeHidden();
  await expect(row.getByText("Pending")).toBeVisible();

  await row.getByRole("button", { name: `Approve the change for ${target.userName}` }).click();
  const approve = page.getByRole("dialog", {
    name: `Approve the contact change of ${target.userName}?`,
  });
  await approve.getByRole("textbox", { name: "Remark" }).fill("Checked with the user by phone");
  await approve.getByRole("button", { name: "Approve" }).click();
  await expect(
    page.getByText(`The contact change of ${target.userName} was approved.`),
  ).toBeVisible();
  // It leaves the pending list.
  await expect(row).toHaveCount(0);

  await page.goto(`${server.url}/user-details/${target.userId}`);
  await expect(page.getByRole("heading", { name: target.userName })).toBeVisible();
  await expect(page.getByText(target.newValue, { exact: true }).first()).toBeVisible();
});

test("a user desk administrator cannot reach Dormant Account by menu, URL or API", async ({
  page,
}) => {
  await logIn(page, server.url, desk.email, desk.password);
  await expect(page.getByRole("navigation").getByText("User", { exact: true })).toBeVisible();
  await expect(page.getByRole("navigation").getByText("Dormant Account")).toHaveCount(0);

  await page.goto(`${server.url}/dormant-account`);
  await expect(page.getByText(/^(Access denied|拒绝访问|无权访问)$/)).toBeVisible();

  const list = await page.request.get(`${server.url}/v1/api/users/dormant`, {
    headers: { Authorization: await tokenOf(desk) },
  });
  expect(list.status()).toBe(403);
  expect(await list.json()).toEqual({
    message: "You have no permission to access GET Dormant Accounts",
  });
});

test("the super administrator sees the dormant accounts", async ({ page }) => {
  await logIn(page, server.url, superAdmin.email, superAdmin.password);
  await page.getByRole("navigation").getByText("Dormant Account").click();
  await expect(page).toHaveURL(/\/dormant-account/);
  await expect(page.getByRole("heading", { name: "Dormant Account" })).toBeVisible();
  const rows = page.locator(".ant-table-row");
  await expect(rows.first()).toBeVisible();
  await expect(rows.first().getByRole("link", { name: /^Wallet of / })).toHaveAttribute(
    "href",
    /\/user-details\/\d+$/,
  );
  await expect(page.getByText(/\d+ dormant accounts/)).toBeVisible();
});
