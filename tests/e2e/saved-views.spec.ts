/**
 * Saved views (issue 35 item 3), against the real started server: the user desk saves a private
 * view and a shared one of the users list and opens the list with the shared one by default; a
 * reload keeps them; after signing out and in, the list opens with the default view; the super
 * administrator (a second administrator holding User) sees the shared view, not the private one.
 */
import type { Page } from "@playwright/test";

import { logIn, logOut } from "./support/console";
import { type DemoLogin, expect, test, useSuperAdminServer } from "./support/fixtures";
import type { RunningServer } from "./support/server";

const suite = useSuperAdminServer(260);
let server: RunningServer;
let desk: DemoLogin;
let superAdmin: DemoLogin;

test.describe.configure({ mode: "serial" });

test.beforeAll(() => {
  ({ server, superAdmin } = suite);
  desk = suite.login("user desk");
});

const byRole = (role: string) =>
  `/user-mgmt?filters[0][field]=role&filters[0][operator]=eq&filters[0][value]=${role}`;

async function saveView(page: Page, name: string, shared: boolean) {
  await page.getByRole("button", { name: "Save view as…" }).click();
  const dialog = page.getByRole("dialog", { name: "Save this list as a view" });
  await dialog.getByLabel("Name").fill(name);
  if (shared) await dialog.getByLabel("Share with everyone who can open this list").check();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(`View "${name}" saved`)).toBeVisible();
}

async function viewNames(page: Page) {
  await page.getByRole("combobox", { name: "Saved views" }).click();
  const options = page.locator(".ant-select-dropdown:visible .ant-select-item-option");
  await expect(options.first()).toBeVisible();
  const names = await options.allTextContents();
  await page.keyboard.press("Escape");
  return names;
}

test("a private and a shared view, kept across a reload and a new sign-in, the shared one seen by another", async ({
  page,
}) => {
  await logIn(page, server.url, desk.email, desk.password);

  await page.goto(`${server.url}${byRole("merchant")}`);
  await expect(page.getByRole("heading", { name: "Users", exact: true })).toBeVisible();
  await saveView(page, "Desk merchants", false);

  await page.goto(`${server.url}${byRole("staff")}&pageSize=20`);
  await saveView(page, "Team staff", true);
  await page.getByRole("button", { name: "Manage the view Team staff" }).click();
  await page.getByRole("menuitem", { name: "Open this list with this view" }).click();
  await expect(page.getByText('This list now opens with "Team staff"')).toBeVisible();

  // A reload keeps both.
  await page.reload();
  expect(await viewNames(page)).toEqual([
    "Desk merchants",
    expect.stringMatching(/^Team staff · shared · default$/),
  ]);

  // Signed out and in again: the list, opened from the menu, opens with the default view.
  await logOut(page);
  await logIn(page, server.url, desk.email, desk.password);
  await page.goto(`${server.url}/user-mgmt`);
  await expect(page.getByRole("combobox", { name: "Saved views" })).toBeVisible();
  await expect(page.locator(".ant-select-selection-item", { hasText: "Team staff" })).toBeVisible();
  await expect.poll(() => decodeURIComponent(page.url())).toContain("[value]=staff");
  await expect.poll(() => decodeURIComponent(page.url())).toContain("pageSize=20");

  // At a phone's width the toolbar is still there.
  await page.setViewportSize({ width: 480, height: 900 });
  await expect(page.getByRole("button", { name: "Save view as…" })).toBeVisible();
  await page.setViewportSize({ width: 1366, height: 900 });
  await logOut(page);

  // Another administrator holding User: the shared view, not the private one.
  await logIn(page, server.url, superAdmin.email, superAdmin.password);
  await page.goto(`${server.url}/user-mgmt`);
  const names = await viewNames(page);
  expect(names).toEqual([expect.stringMatching(/^Team staff · shared · by /)]);
});
