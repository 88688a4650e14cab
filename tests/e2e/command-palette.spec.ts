/**
 * Issue 17 item 7: the command palette (Ctrl / ⌘ + K) jumps to a page, finds a wallet user by
 * account number and runs "approve the next pending user"; a list answers j / k, Enter, a and r;
 * `?` lists the shortcuts.
 */
import { logIn } from "./support/console";
import { expect, test, useSuperAdminServer } from "./support/fixtures";

const suite = useSuperAdminServer(115);

test.describe.configure({ mode: "serial" });

/** The users the API lists first for `filter` (as the console encodes it). */
async function users(filter: Record<string, unknown>) {
  const query = new URLSearchParams({
    filter: JSON.stringify(filter),
    sort: JSON.stringify({ createdAt: -1 }),
    pagination: JSON.stringify({ page: 1, pageSize: 10 }),
  });
  const answer = await fetch(`${suite.server.url}/v1/api/users/aggregation?${query}`, {
    headers: { Authorization: suite.token },
  });
  return ((await answer.json()) as { users: { id: number; name: string; accountNumber: string }[] })
    .users;
}

test("the palette goes to a page, finds a user by account number, and approves the next pending user", async ({
  page,
}) => {
  await logIn(page, suite.server.url, suite.superAdmin.email, suite.superAdmin.password);
  const palette = page.getByRole("dialog", { name: "Go to…" });
  // The dashboard's own heading: the URL changes while the login page (its h1 the console's name)
  // still shows, and a Ctrl + K then reaches no palette (CPU throttled 8×, 1 run in 3).
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();

  await page.keyboard.press("Control+k");
  await expect(palette).toBeVisible();
  await page.keyboard.type("Admin");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin-mgmt/);
  await expect(palette).toBeHidden();

  const [someone] = await users({ approvalStatus: "approved" });
  await page.keyboard.press("Control+k");
  await page.keyboard.type(someone!.accountNumber);
  const found = palette.getByRole("option", { name: new RegExp(someone!.accountNumber) });
  await expect(found).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/user-details/${someone!.id}$`));

  const [next] = await users({ approvalStatus: "pending" });
  await page.keyboard.press("Control+k");
  await page.keyboard.type("approve the next");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/user-approval/);
  const dialog = page.getByRole("dialog", { name: `Approve ${next!.name}` });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Remark").fill("Checked by the palette story");
  await dialog.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(page.getByText(`${next!.name} was approved`)).toBeVisible();
  expect((await users({ approvalStatus: "pending" })).map((user) => user.id)).not.toContain(
    next!.id,
  );
});

test("a list answers j / k, Enter and r; ? lists the shortcuts", async ({ page }) => {
  await logIn(page, suite.server.url, suite.superAdmin.email, suite.superAdmin.password);
  await page.goto(`${suite.server.url}/user-approval`);
  const rows = page.locator(".ant-table-row");
  await expect(rows.first()).toBeVisible();
  const pending = await users({ approvalStatus: "pending" });

  await page.keyboard.press("j");
  await page.keyboard.press("j");
  await page.keyboard.press("k");
  await expect(rows.first()).toHaveAttribute("aria-current", "true");
  await page.keyboard.press("j");
  await expect(rows.nth(1)).toHaveAttribute("aria-current", "true");
  await page.keyboard.press("r");
  const dialog = page.getByRole("dialog", { name: `Reject ${pending[1]!.name}` });
  // The decision asks for its remark, as a click on Reject would; Escape leaves it undecided.
  await dialog.getByLabel("Remark").fill("Not today");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  expect((await users({ approvalStatus: "pending" })).map((user) => user.id)).toContain(
    pending[1]!.id,
  );

  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toContainText("Reject the row");
  await page.keyboard.press("Escape");

  await page.goto(`${suite.server.url}/user-mgmt`);
  await expect(rows.first()).toBeVisible();
  await page.keyboard.press("j");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/user-details\/\d+$/);
});
