/**
 * The console on a phone (480 px) and a small laptop (1366 px), as issue 17 found it: at 480 px
 * the page must not be wider than the screen, Logout must be on screen, the menu must open as a
 * drawer over the page (not push it aside) and close once a page is chosen, and the approval
 * list must show whom a row is about next to its Approve / Reject. At 1366 px no column header of
 * any list may be covered by another (the fixed Actions column once covered "Submitted").
 *
 * Issue 37: at 1366 px a list's row actions (Approve / Reject, Reverse, Mark paid …) must be on
 * screen without scrolling the table sideways, and at 480 px each list must still show the
 * columns that say which record a row is (the UCSI ID's holder, the business update's changes).
 */
import type { Page } from "@playwright/test";

import type { MenuEntry } from "../../src/app/menu";
import { logIn } from "./support/console";
import { expect, test, useSuperAdminServer } from "./support/fixtures";
import { MENU } from "./support/modules";

const suite = useSuperAdminServer(110);

test.describe.configure({ mode: "serial" });

const pagesOf = (entries: readonly MenuEntry[]): string[] =>
  entries.flatMap((entry) => [
    ...(entry.path ? [entry.path] : []),
    ...pagesOf(entry.subMenu ?? []),
  ]);

/** Waits for the page's heading and data. */
async function settle(page: Page) {
  await expect(page.locator("h1, .ant-result-title").first()).toBeVisible();
  await expect(page.locator(".ant-spin-spinning, .ant-skeleton-active")).toHaveCount(0);
}

/** Opens a console page as its links do, and waits for its heading and data. */
async function open(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, "", to);
    window.dispatchEvent(new PopStateEvent("popstate"));
  }, path);
  await settle(page);
}

/** Loads a console page afresh: what is measured then is that page's, never the last one's. */
async function load(page: Page, path: string) {
  await page.goto(`${suite.server.url}${path}`);
  await settle(page);
}

test("at 480 px every page fits the screen, Logout is on it, and the menu is a drawer", async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 480, height: 900 });
  await logIn(page, suite.server.url, suite.superAdmin.email, suite.superAdmin.password);

  const tooWide: string[] = [];
  for (const path of pagesOf(MENU)) {
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

/**
 * The headers of the page's tables that another element covers (what `elementFromPoint` finds)
 * wherever the table is scrolled: one that scrolling sideways brings out from under the fixed
 * Actions column is in reach, one covered at both ends of the scroll is not.
 */
function coveredHeaders(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const table of Array.from(document.querySelectorAll(".ant-table"))) {
      const scrollers = Array.from(
        table.querySelectorAll<HTMLElement>(
          ".ant-table-content, .ant-table-header, .ant-table-body",
        ),
      );
      const coveredAt = (scrollLeft: number) => {
        for (const scroller of scrollers) scroller.scrollLeft = scrollLeft;
        const frame = table.getBoundingClientRect();
        const covered = new Set<Element>();
        for (const cell of Array.from(table.querySelectorAll(".ant-table-thead th"))) {
          const box = cell.getBoundingClientRect();
          const x = box.left + box.width / 2;
          const y = box.top + box.height / 2;
          // A header scrolled out of the table's frame is not covered, only out of sight.
          if (box.width === 0 || x < frame.left || x > frame.right) continue;
          const top = document.elementFromPoint(x, y);
          if (top && !cell.contains(top)) covered.add(cell);
        }
        return covered;
      };
      const atEnd = coveredAt(1e9);
      for (const cell of Array.from(coveredAt(0))) {
        if (atEnd.has(cell)) found.push(cell.textContent?.trim() || "(blank)");
      }
    }
    return found;
  });
}

test("at 1366 px no list's column header is covered by another", async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1366, height: 768 });
  await logIn(page, suite.server.url, suite.superAdmin.email, suite.superAdmin.password);
  for (const path of pagesOf(MENU)) {
    await open(page, path);
    // A table's loading veil covers it for a moment; what stays covered is the fault.
    await expect.poll(() => coveredHeaders(page), { message: path }).toEqual([]);
  }
});

/**
 * The row buttons of the page's tables that are not wholly inside the table's visible frame and
 * the window, with the table unscrolled: reaching them would take a sideways scroll.
 */
function rowButtonsOutOfSight(page: Page): Promise<{ buttons: number; outside: string[] }> {
  return page.evaluate(() => {
    let buttons = 0;
    const outside: string[] = [];
    for (const table of Array.from(document.querySelectorAll(".ant-table"))) {
      const scroller =
        table.querySelector<HTMLElement>(".ant-table-content, .ant-table-body") ?? table;
      scroller.scrollLeft = 0;
      const frame = scroller.getBoundingClientRect();
      const right = Math.min(frame.right, window.innerWidth);
      for (const button of Array.from(
        table.querySelectorAll<HTMLElement>(".ant-table-tbody > tr.ant-table-row button"),
      )) {
        const box = button.getBoundingClientRect();
        if (box.width === 0) continue;
        buttons += 1;
        if (box.left < frame.left - 0.5 || box.right > right + 0.5) {
          const name = button.getAttribute("aria-label") ?? button.textContent?.trim();
          outside.push(`${name}: ${Math.round(box.left)}-${Math.round(box.right)} px`);
        }
      }
    }
    return { buttons, outside };
  });
}

/** Lists whose rows carry buttons with the demo data (the story must have seen them). */
const LISTS_WITH_ROW_ACTIONS = [
  "/user-approval",
  "/user-mgmt",
  "/top-up-transaction",
  "/settlement-record",
  "/user-report",
  "/ucsi-id-mgmt",
];

test("at 1366 px every list's row actions are on screen without scrolling", async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1366, height: 768 });
  await logIn(page, suite.server.url, suite.superAdmin.email, suite.superAdmin.password);
  const outOfSight: string[] = [];
  const withActions: string[] = [];
  for (const path of pagesOf(MENU)) {
    await load(page, path);
    const { buttons, outside } = await rowButtonsOutOfSight(page);
    if (buttons > 0) withActions.push(path);
    outOfSight.push(...outside.map((button) => `${path} ${button}`));
  }
  expect(outOfSight).toEqual([]);
  expect(LISTS_WITH_ROW_ACTIONS.filter((path) => !withActions.includes(path))).toEqual([]);
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
  await page.setViewportSize({ width: 480, height: 900 });
  await logIn(page, suite.server.url, suite.superAdmin.email, suite.superAdmin.password);
  for (const [path, headers] of Object.entries(IDENTIFYING_COLUMNS)) {
    await load(page, path);
    for (const header of headers) {
      const cell = page.locator(".ant-table-thead th").getByText(header, { exact: true });
      await expect(cell, `${path}: ${header}`).toBeInViewport();
    }
  }
});
