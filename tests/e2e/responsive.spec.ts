/**
 * The console on a phone (480 px) and a small laptop (1366 px), as issue 17 found it: at 480 px
 * the page must not be wider than the screen, Logout must be on screen, the menu must open as a
 * drawer over the page (not push it aside) and close once a page is chosen, and the approval
 * list must show whom a row is about next to its Approve / Reject. At 1366 px no column header of
 * any list may be covered by another (the fixed Actions column once covered "Submitted").
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

/** Opens a console page as its links do, and waits for its heading and data. */
async function open(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, "", to);
    window.dispatchEvent(new PopStateEvent("popstate"));
  }, path);
  await expect(page.locator("h1, .ant-result-title").first()).toBeVisible();
  await expect(page.locator(".ant-spin-spinning, .ant-skeleton-active")).toHaveCount(0);
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
