/**
 * axe-core in Chromium on every screen: the calculator, the login and the reset page signed out;
 * then, with one login, every page of the side menu (read from the menu table), the detail,
 * create and edit pages of every declared module, the 404 page, and the dialogs and drawers one
 * click away (DIALOGS: the report, a decision, a ban, an export, a settlement run, an import, the
 * global settings' review, the rich-text editor's link, the command palette, the phone's menu).
 * Every screen is checked twice: in English, in the light theme, 1366 px wide; and in Chinese, in
 * the dark theme, 480 px wide (a phone), both behind one sign-in. No serious or critical
 * violation anywhere. The violations of every screen are collected first and reported together.
 */
import { readFileSync } from "node:fs";

import type { Page, Request } from "@playwright/test";

import type { MenuEntry } from "../../src/app/menu";
import { logIn, seriousA11yViolations } from "./support/console";
import { expect, test, useSuperAdminServer } from "./support/fixtures";
import { MENU, MODULES } from "./support/modules";
import { resetLinkPath } from "./support/outbox";
import { standInRecaptcha } from "./support/recaptcha";

const suite = useSuperAdminServer(80);

type Language = "en-US" | "cn-ZH";
/** Each screen's two looks: every language, theme and width at least once. */
const PASSES = [
  { language: "en-US", theme: "light", width: 1366, height: 768 },
  { language: "cn-ZH", theme: "dark", width: 480, height: 900 },
] as const;
const passName = (pass: (typeof PASSES)[number]) =>
  `${pass.language} ${pass.theme} ${pass.width}px`;

/** A word of the console in `language` (locales/<language>/<ns>.json, `a.b.c`). */
function word(language: Language, ns: string, key: string): string {
  const table = JSON.parse(readFileSync(`locales/${language}/${ns}.json`, "utf8")) as object;
  const value = key.split(".").reduce<unknown>((node, part) => (node as never)?.[part], table);
  if (typeof value !== "string") throw new Error(`no ${language} ${ns}:${key}`);
  return value;
}

/** A name that begins as `template` does before its first {{placeholder}}. */
const startingWith = (template: string) =>
  new RegExp(`^${template.split("{{")[0]!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`);

const pagesOf = (entries: readonly MenuEntry[]): string[] =>
  entries.flatMap((entry) => [
    ...(entry.path ? [entry.path] : []),
    ...pagesOf(entry.subMenu ?? []),
  ]);

type Row = { id: number } & Record<string, unknown>;

/** The id of one record a list shows (the first, or the first that `fits`), read through the API. */
async function firstId(path: string, listKey: string, fits = (_row: Row) => true): Promise<number> {
  const answer = await fetch(`${suite.server.url}/v1${path}`, {
    headers: { Authorization: suite.token },
  });
  const body = (await answer.json()) as Record<string, Row[]>;
  const id = body[listKey]?.find(fits)?.id;
  if (id === undefined) throw new Error(`no record in ${path}`);
  return id;
}

/**
 * Which record of a module the walk opens, where the first would hide something: a help article
 * with a link in its body (a link in running text, shown and in the rich-text editor).
 */
const SHOWN_RECORD: Record<string, (row: Row) => boolean> = {
  "help-articles": (row) => String(row.bodyEn).includes("<a "),
};

/** Has the back office e-mail a reset link to a demo user; its path and query. */
async function issueResetLink(): Promise<string> {
  const pagination = encodeURIComponent(JSON.stringify({ page: 1, pageSize: 50 }));
  const list = await fetch(
    `${suite.server.url}/v1/api/users/aggregation?pagination=${pagination}`,
    {
      headers: { Authorization: suite.token },
    },
  );
  const { users } = (await list.json()) as { users: { accountNumber: string; email: string }[] };
  const user = users.find((u) => u.email);
  if (!user) throw new Error("no demo user with an e-mail");
  const sent = await fetch(`${suite.server.url}/v1/user-mgmt/reset-user-password`, {
    method: "POST",
    headers: { Authorization: suite.token, "content-type": "application/json" },
    body: JSON.stringify({ account_number: user.accountNumber }),
  });
  expect(sent.status).toBe(202);
  return resetLinkPath(suite.server.dataDir, user.email);
}

/** Every console page behind the login: the menu's pages, then each module's record pages. */
async function consolePages(): Promise<string[]> {
  const pages = pagesOf(MENU);
  // A detail page only (a ledger row's) has no list to find a record in: tests/e2e/lookup.spec.ts
  // opens it.
  for (const module of MODULES.filter((declared) => !declared.detailOnly)) {
    const { show, create, edit } = module.paths as {
      show?: string;
      create?: string;
      edit?: string;
    };
    if (!show && !edit) {
      if (create) pages.push(create);
      continue;
    }
    const id = await firstId(
      module.listPath ?? `/api/${module.collection}/aggregation`,
      module.queryName,
      SHOWN_RECORD[module.name],
    );
    if (show) pages.push(`${show}/${id}`);
    if (edit) pages.push(edit.replace(":id", String(id)));
    if (create) pages.push(create);
  }
  pages.push("/no-such-page");
  return [...new Set(pages)];
}

const HEADING = "h1, .ant-result-title";

/** Below antd's `md` breakpoint the side menu is a drawer the header's menu button opens. */
const PHONE_WIDTH = 768;

/** A button of the console by its whole name, in `language` (`ns:key`). */
const button = (page: Page, language: Language, ns: string, key: string) =>
  page.getByRole("button", { name: word(language, ns, key), exact: true });

/**
 * The dialogs and drawers one click (or one shortcut) away from a page, opened as a person opens
 * them: a kind of dialog the kit draws for many pages is checked on one of them.
 */
const DIALOGS: {
  name: string;
  path: (pages: string[]) => string;
  show: (page: Page, language: Language) => Promise<void>;
  phoneOnly?: boolean;
}[] = [
  {
    name: "decision dialog",
    path: () => "/user-approval",
    show: (page) => page.locator(".ant-table-row").first().getByRole("button").first().click(),
  },
  {
    name: "ban dialog",
    path: (pages) => pages.find((path) => path.startsWith("/user-details/"))!,
    // The kit's action button is named for the user ("Ban <name>", "封禁 <name>").
    show: (page, language) =>
      page
        .getByRole("button", { name: startingWith(word(language, "users", "decision.banFor")) })
        .click(),
  },
  {
    name: "export dialog",
    path: () => "/settlement-record",
    show: (page, language) => button(page, language, "kit", "export.button").click(),
  },
  {
    name: "run dialog",
    path: () => "/settlement-record",
    show: (page, language) => button(page, language, "settlement", "run.button").click(),
  },
  {
    name: "import dialog",
    path: () => "/ucsi-id-mgmt",
    show: (page, language) => button(page, language, "ucsiId", "import.button").click(),
  },
  {
    name: "review dialog",
    path: () => "/global",
    show: (page, language) => button(page, language, "global", "review.open").click(),
  },
  {
    name: "rich-text link dialog",
    path: (pages) => pages.find((path) => /^\/content-mgmt\/\d+\/edit$/.test(path))!,
    show: (page, language) => button(page, language, "kit", "richText.link").first().click(),
  },
  {
    name: "command palette",
    path: () => "/dashboard",
    show: (page) => page.keyboard.press("Control+k"),
  },
  {
    name: "menu drawer",
    path: () => "/dashboard",
    show: (page) => page.locator("[aria-controls='console-navigation']").click(),
    phoneOnly: true,
  },
];

/**
 * Opens `path` as the console's own links do (history push, no reload): the bundle loads once per
 * language, not once per screen. The new screen counts as shown once the tab's title (named after
 * the menu entry) has changed, or its heading is another element or says something else (a detail
 * page and its edit page share a menu entry); the old heading is marked to tell.
 */
async function open(page: Page, path: string) {
  const before = await page.evaluate(
    ({ to, heading }) => {
      if (window.location.pathname === to) return null; // already there
      const old = document.querySelector(heading);
      old?.setAttribute("data-left", "");
      window.history.pushState({}, "", to);
      window.dispatchEvent(new PopStateEvent("popstate"));
      return { title: document.title, text: old?.textContent ?? "" };
    },
    { to: path, heading: HEADING },
  );
  // A list writes its page, sort and filters into the query string once it has loaded. A page
  // the console hands to a full-page shell page (a help article's editor) lands on its `?id=`.
  await expect
    .poll(() => {
      const url = new URL(page.url());
      return url.pathname === path || (path.startsWith(url.pathname) && url.searchParams.has("id"));
    })
    .toBe(true);
  if (before === null) return;
  await expect
    .poll(() =>
      page.evaluate(
        ({ title, text, heading }) => {
          const shown = document.querySelector(heading);
          if (!shown) return false;
          if (document.title !== title) return true;
          return !shown.hasAttribute("data-left") || shown.textContent !== text;
        },
        { ...before, heading: HEADING },
      ),
    )
    .toBe(true);
}

async function useLanguage(page: Page, language: Language) {
  await page.evaluate((value) => localStorage.setItem("language", value), language);
}

/** The signed-in administrator's theme, saved as the Setting page saves it. */
async function useTheme(theme: "light" | "dark") {
  const saved = await fetch(`${suite.server.url}/v1/api/account/admin`, {
    method: "PATCH",
    headers: { Authorization: suite.token, "content-type": "application/json" },
    body: JSON.stringify({ theme }),
  });
  expect(saved.status).toBe(200);
}

/**
 * Whether the page has had no request in flight for a moment (lazy panels fetch after mounting).
 * The live updates' event stream stays open for as long as the console does: not counted.
 */
function networkQuiet(page: Page): () => boolean {
  let inFlight = 0;
  let last = Date.now();
  const counted = (request: Request) => !request.url().includes("/api/live/events");
  const begin = (request: Request) => {
    if (!counted(request)) return;
    inFlight += 1;
    last = Date.now();
  };
  const end = (request: Request) => {
    if (!counted(request)) return;
    inFlight -= 1;
    last = Date.now();
  };
  page.on("request", begin);
  page.on("requestfinished", end);
  page.on("requestfailed", end);
  return () => inFlight <= 0 && Date.now() - last > 300;
}

let quiet: () => boolean = () => true;

/** Waits until the screen has drawn its data: a heading, the network quiet, no spinner. */
async function settled(page: Page) {
  await expect(page.locator(HEADING).first()).toBeVisible();
  await expect.poll(quiet).toBe(true);
  await expect(page.locator(".ant-spin-spinning, .ant-skeleton-active")).toHaveCount(0);
}

test("every screen, in both languages, both themes and both widths, has no serious or critical accessibility violation", async ({
  page,
}) => {
  test.setTimeout(900_000);
  quiet = networkQuiet(page);
  const found = new Map<string, string[]>();
  const timings = new Map<string, string>();
  const check = async (screen: string) => {
    const t0 = Date.now();
    await settled(page);
    const t1 = Date.now();
    found.set(screen, await seriousA11yViolations(page));
    timings.set(screen, `settle ${t1 - t0} ms, axe ${Date.now() - t1} ms`);
  };
  const dialog = async (screen: string, open: () => Promise<void>) => {
    await open();
    await expect(page.getByRole("dialog")).toBeVisible();
    // Let the dialog finish opening, so axe sees it as a person would.
    await expect(page.locator(".ant-zoom-appear, .ant-zoom-enter")).toHaveCount(0);
    await check(screen);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);
  };

  // A live reset link, as a wallet user gets it by e-mail: its page is public too.
  const resetPath = await issueResetLink();
  await standInRecaptcha(page);
  await page.goto(`${suite.server.url}/login`);
  for (const pass of PASSES) {
    const { language } = pass;
    await page.setViewportSize({ width: pass.width, height: pass.height });
    await useLanguage(page, language);
    await page.goto(`${suite.server.url}/`);
    await check(`${passName(pass)} /`);
    await dialog(`${passName(pass)} / report dialog`, () =>
      page.getByRole("button", { name: word(language, "calculator", "report.open") }).click(),
    );
    await page.goto(`${suite.server.url}/login`);
    await check(`${passName(pass)} /login`);
    await page.goto(`${suite.server.url}${resetPath}`);
    await expect(page.locator("form")).toBeVisible();
    await check(`${passName(pass)} /reset-password`);
  }

  await page.setViewportSize({ width: PASSES[0].width, height: PASSES[0].height });
  await useLanguage(page, "en-US");
  await logIn(page, suite.server.url, suite.superAdmin.email, suite.superAdmin.password);
  const pages = await consolePages();
  for (const pass of PASSES) {
    const { language } = pass;
    await page.setViewportSize({ width: pass.width, height: pass.height });
    await useLanguage(page, language);
    await useTheme(pass.theme);
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("data-theme", pass.theme);
    for (const path of pages) {
      await open(page, path);
      await check(`${passName(pass)} ${path}`);
    }
    for (const { name, path, show, phoneOnly } of DIALOGS) {
      if (phoneOnly && pass.width >= PHONE_WIDTH) continue;
      const where = path(pages);
      await open(page, where);
      await settled(page);
      await dialog(`${passName(pass)} ${where} ${name}`, () => show(page, language));
    }
  }

  const report = [...found].map(
    ([screen, violations]) =>
      `${screen}: ${violations.length} (${timings.get(screen)})${violations.map((v) => `\n    ${v}`).join("")}`,
  );
  console.log(`axe, serious and critical violations per screen:\n  ${report.join("\n  ")}`);
  expect(found.size).toBeGreaterThan(2 * pagesOf(MENU).length);
  expect([...found].filter(([, violations]) => violations.length > 0)).toEqual([]);
});
