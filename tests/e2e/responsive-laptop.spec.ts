/**
 * The console on a small laptop (1366 px), as issue 17 found it: no column header of any list may
 * be covered by another (the fixed Actions column once covered "Submitted"). Issue 37: a list's
 * row actions (Approve / Reject, Reverse, Mark paid …) must be on screen without scrolling the
 * table sideways. responsive-phone.spec.ts is the console at 480 px.
 */
import type { Page } from "@playwright/test";

import { expect, test, useSignedInSuperAdmin, useSuperAdminServer } from "./support/fixtures";
import { MENU_PAGES, open, startAt } from "./support/responsive";

const suite = useSuperAdminServer(111);
useSignedInSuperAdmin(suite);

test.describe.configure({ mode: "serial" });

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
  await startAt(page, suite.server.url, 1366, 768);
  for (const path of MENU_PAGES) {
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
  await startAt(page, suite.server.url, 1366, 768);
  const outOfSight: string[] = [];
  const withActions: string[] = [];
  for (const path of MENU_PAGES) {
    await open(page, path);
    const { buttons, outside } = await rowButtonsOutOfSight(page);
    if (buttons > 0) withActions.push(path);
    outOfSight.push(...outside.map((button) => `${path} ${button}`));
  }
  expect(outOfSight).toEqual([]);
  expect(LISTS_WITH_ROW_ACTIONS.filter((path) => !withActions.includes(path))).toEqual([]);
});
