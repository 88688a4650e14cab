/**
 * What the responsive stories share (responsive-phone.spec.ts at 480 px, responsive-laptop.spec.ts
 * at 1366 px, issues 17 and 37): the side menu's pages, and opening them as the console's links do.
 */
import type { Page } from "@playwright/test";

import type { MenuEntry } from "../../../src/app/menu";
import { openScreen, SCREEN_HEADING } from "./console";
import { expect } from "./fixtures";
import { MENU } from "./modules";

const pagesOf = (entries: readonly MenuEntry[]): string[] =>
  entries.flatMap((entry) => [
    ...(entry.path ? [entry.path] : []),
    ...pagesOf(entry.subMenu ?? []),
  ]);

/** Every page of the side menu, in its order. */
export const MENU_PAGES = pagesOf(MENU);

/** Waits for the page's heading and data. */
async function settle(page: Page) {
  await expect(page.locator(SCREEN_HEADING).first()).toBeVisible();
  await expect(page.locator(".ant-spin-spinning, .ant-skeleton-active")).toHaveCount(0);
}

/**
 * The signed-in console at `width` x `height`, on the Dashboard: loaded once, each page after it
 * opened with `open`.
 */
export async function startAt(page: Page, baseUrl: string, width: number, height: number) {
  await page.setViewportSize({ width, height });
  await page.goto(`${baseUrl}/dashboard`);
  await settle(page);
}

/**
 * Opens a console page as its links do, and waits for its heading and data: what is measured
 * then is that page's, never the last one's (openScreen waits for the new screen).
 */
export async function open(page: Page, path: string) {
  await openScreen(page, path);
  await settle(page);
}
