/** Page steps shared by the browser stories: what a staff member does, in their words. */
import { readFileSync } from "node:fs";
import { expect, type Locator, type Page } from "@playwright/test";

const axeSource = readFileSync("node_modules/axe-core/axe.min.js", "utf8");

export async function logIn(page: Page, baseUrl: string, email: string, password: string) {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel(/^(Email|电子邮件)$/).fill(email);
  await page.getByLabel(/^(Password|密码)$/).fill(password);
  await page.getByRole("button", { name: /^(Sign in|登\s?录)$/ }).click();
  await expect(page).toHaveURL(/\/dashboard/);
}

/** A console screen's heading: a page's `h1`, or a result page's title (404, 403). */
export const SCREEN_HEADING = "h1, .ant-result-title";

/** How often openScreen looks again (ms): a screen opens in a few hundred, not seconds. */
const SCREEN_POLL = [50, 100, 100, 250];

/**
 * Opens `path` as the console's own links do (history push, no reload): the bundle loads once,
 * not once per screen. The new screen counts as shown once the tab's title (named after the menu
 * entry) has changed, or its heading is another element or says something else (a detail page
 * and its edit page share a menu entry); the old heading is marked to tell. What is looked at
 * next is then the new screen's, never the last one's.
 */
export async function openScreen(page: Page, path: string) {
  const before = await page.evaluate(
    ({ to, heading }) => {
      if (window.location.pathname === to) return null; // already there
      const old = document.querySelector(heading);
      old?.setAttribute("data-left", "");
      window.history.pushState({}, "", to);
      window.dispatchEvent(new PopStateEvent("popstate"));
      return { title: document.title, text: old?.textContent ?? "" };
    },
    { to: path, heading: SCREEN_HEADING },
  );
  // A list writes its page, sort and filters into the query string once it has loaded. A page
  // the console hands to a full-page shell page (a help article's editor) lands on its `?id=`.
  await expect
    .poll(
      () => {
        const url = new URL(page.url());
        return (
          url.pathname === path || (path.startsWith(url.pathname) && url.searchParams.has("id"))
        );
      },
      { intervals: SCREEN_POLL },
    )
    .toBe(true);
  if (before === null) return;
  await expect
    .poll(
      () =>
        page.evaluate(
          ({ title, text, heading }) => {
            const shown = document.querySelector(heading);
            if (!shown) return false;
            if (document.title !== title) return true;
            return !shown.hasAttribute("data-left") || shown.textContent !== text;
          },
          { ...before, heading: SCREEN_HEADING },
        ),
      { intervals: SCREEN_POLL },
    )
    .toBe(true);
}

export async function logOut(page: Page) {
  await page.getByRole("button", { name: /^(Logout|退出登录)$/ }).click();
  await expect(page).toHaveURL(/\/login/);
}

/**
 * Asserts the side navigation's top-level entries, in order (a group counts as one entry).
 * Retries until the menu settles, since it renders once the administrator is known.
 */
export async function expectMenu(page: Page, labels: (string | RegExp)[]) {
  const topLevel = page
    .getByRole("navigation")
    .locator(".ant-menu-root > li[role='menuitem'], .ant-menu-root > li > [role='menuitem']");
  await expect(topLevel).toHaveText(labels);
}

export async function switchLanguage(page: Page, to: "English" | "中文") {
  const choice = page.getByRole("menuitem", { name: to });
  const lang = to === "中文" ? "zh-CN" : "en";
  // A click that lands while the drop-down is still zooming open can miss its item (seen once
  // in CI): open and choose again until the page has switched, as a person would.
  await expect(async () => {
    if (!(await choice.isVisible())) {
      await page.getByRole("button", { name: /^(Language|语言)$/ }).click();
    }
    await choice.click({ timeout: 2_000 });
    await expect(page.locator("html")).toHaveAttribute("lang", lang, { timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  // Let the drop-down finish closing, so nothing half-faded is left on the page.
  await expect(page.locator(".ant-dropdown:not(.ant-dropdown-hidden)")).toHaveCount(0);
}

/**
 * Runs axe-core in the page and returns the serious and critical violations. Text drawn in its
 * background's own colour (1:1) counts as a colour-contrast violation too: axe only lists it as
 * "needs review", taking it for deliberately hidden text, but in the console it is text nobody
 * can read (the rich-text editor's white text on a white box in the dark theme, issue 37).
 */
export async function seriousA11yViolations(page: Page) {
  // Evaluated over the DevTools protocol: the app's CSP rightly refuses injected <script> tags.
  // Once per document: a screen the console's own links opened still has it (0.5 MB to parse).
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    type Result = {
      id: string;
      impact: string | null;
      help: string;
      nodes: { target: unknown[]; any: { data?: { messageKey?: string } | null }[] }[];
    };
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document) => Promise<{ violations: Result[]; incomplete: Result[] }> };
      }
    ).axe;
    const result = await axe.run(document);
    const invisible = result.incomplete
      .filter((r) => r.id === "color-contrast")
      .flatMap((r) => r.nodes)
      .filter((node) => node.any.some((check) => check.data?.messageKey === "equalRatio"));
    return [
      ...result.violations,
      ...(invisible.length > 0
        ? [
            {
              id: "color-contrast",
              impact: "serious",
              help: "Text must not be the colour of its background (1:1)",
              nodes: invisible,
            },
          ]
        : []),
    ];
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")}`,
    );
}

/** The change request's reference a "Sent for approval as CR…" toast names, once it shows. */
export async function sentForApproval(page: Page): Promise<string> {
  const toast = page.getByText(
    /^Sent for approval as (CR\w+): another administrator must approve it\.$/,
  );
  await expect(toast).toBeVisible();
  return /as (CR\w+):/.exec((await toast.textContent()) ?? "")![1]!;
}

/**
 * The signed-in checker opens Pending approvals and approves change request `reference` with a
 * remark; `check` looks at the approval dialog first (what the change is, old → new).
 */
export async function approveChangeRequest(
  page: Page,
  reference: string,
  remark: string,
  check?: (dialog: Locator, row: Locator) => Promise<void>,
) {
  await page
    .getByRole("navigation")
    .getByRole("link", { name: /^Pending approvals/ })
    .click();
  await expect(page.getByRole("heading", { name: "Pending approvals" })).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: reference });
  await expect(row).toBeVisible();
  await row.getByRole("button", { name: `Approve change request ${reference}` }).click();
  const dialog = page.getByRole("dialog", { name: `Approve change request ${reference}?` });
  await check?.(dialog, row);
  await dialog.getByRole("textbox", { name: "Remark" }).fill(remark);
  await dialog.getByRole("button", { name: "Approve" }).click();
  await expect(dialog).toBeHidden();
  await expect(
    page.getByText(`Change request ${reference} was approved and the change applied.`),
  ).toBeVisible();
}
