/**
 * The console on a phone (480 px), as issue 17 found it: the page must not be wider than the
 * screen, Logout must be on screen, the menu must open as a drawer over the page (not push it
 * aside) and close once a page is chosen, and the approval list must show whom a row is about
 * next to its Approve / Reject. Issue 37: each list must still show the columns that say which
 * record a row is (the UCSI ID's holder, the business update's changes).
 * responsive-laptop.spec.ts is the console at 1366 px.
 */
import { expect, test, useSignedInSuperAdmin, useSuperAdminServer } from "./support/fixtures";
import { MENU_PAGES, open, startAt } from "./support/responsive";

const suite = useSuperAdminServer(110);
useSignedInSuperAdmin(suite);

test.describe.configure({ mode: "serial" });

test("at 480 px every page fits the screen, Logout is on it, and the menu is a drawer", async ({
  page,
}) => {
  test.setTimeout(300_000);
  await startAt(page, suite.server.url, 480, 900);

  const tooWide: string[] = [];
  for (const path of MENU_PAGES) {
    await open(page, path);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (width > 480) tooWide.push(`${path}: ${width} px`);
    const logout = page.getByRole("button", { name: "Logout" });
    await expect(logout).toBeInViewport({ ratio: 1 });
  }
  expect(tooWide).toEqual([]);

  // The menu opens over the page: the page's heading does not move, and choosing closes it.
  await open(page, "/dashboard");
  const heading = page.getByRole("heading", { level: 1 });
  const before = await heading.boundingBox();
  await page.getByRole("button", { name: "Expand menu" }).click();
  const drawer = page.locator(".ant-drawer-content");
  await expect(drawer).toBeVisible();
  expect(await heading.boundingBox()).toEqual(before);
  await drawer.getByRole("menuitem", { name: "Admin" }).click();
  await expect(page).toHaveURL(/\/admin-mgmt/);
  await expect(drawer).toBeHidden();

  // The approval list: each row names its user beside the decision buttons.
  await open(page, "/user-approval");
  const row = page.locator(".ant-table-row").first();
  await expect(row.getByRole("button", { name: /^Approve / })).toBeInViewport();
  const name = (await row.getByRole("button", { name: /^Approve / }).getAttribute("aria-label"))!
    .replace(/^Approve /, "")
    .trim();
  await expect(row.getByText(name, { exact: true })).toBeInViewport();
});

/** What says which record a row is, per list with row actions: these headers stay on a phone. */
const IDENTIFYING_COLUMNS: Record<string, readonly string[]> = {
  "/user-approval": ["Account number", "Name"],
  "/user-mgmt": ["Account number", "Name"],
  "/user-change-contact": ["User"],
  "/business-approval": ["Business"],
  "/business-mgmt": ["Business"],
  "/business-update": ["Business", "Changes (current → requested)"],
  "/top-up-transaction": ["Reference", "Account number"],
  "/settlement-record": ["Invoice number", "Business"],
  "/user-report": ["Reference", "Subject"],
  "/parking-session": ["Plate"],
  "/ucsi-id-mgmt": ["UCSI ID", "Account holder"],
  "/app-notification": ["Title (English)"],
  "/change-requests": ["Reference"],
  "/admin-mgmt": ["Name"],
};

test("at 480 px every list shows the columns that say which record a row is", async ({ page }) => {
  test.setTimeout(300_000);
  await startAt(page, suite.server.url, 480, 900);
  for (const [path, headers] of Object.entries(IDENTIFYING_COLUMNS)) {
    await open(page, path);
    for (const header of headers) {
      const cell = page.locator(".ant-table-thead th").getByText(header, { exact: true });
      await expect(cell, `${path}: ${header}`).toBeInViewport();
    }
  }
});
