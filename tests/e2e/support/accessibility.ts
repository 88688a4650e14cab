/**
 * axe-core in Chromium on every screen: the calculator, the login and the reset page signed out;
 * then, with one login, every page of the side menu (read from the menu table), the detail,
 * create and edit pages of every declared module, the 404 page, and the dialogs and drawers one
 * click away (DIALOGS: the report, a decision, a ban, an export, a settlement run, an import, the
 * global settings' review, the rich-text editor's link, the command palette, the phone's menu).
 * Every screen is checked twice (PASSES): in English, in the light theme, 1366 px wide; and in
 * Chinese, in the dark theme, 480 px wide (a phone). Each pass is a spec file of its own
 * (tests/e2e/accessibility-*.spec.ts, one server and one sign-in each), so the two run side by
 * side on the two workers. No serious or critical violation anywhere. The violations of every
 * screen of a pass are collected first and reported together.
 */
import { readFileSync } from "node:fs";

import type { Page, Request } from "@playwright/test";

import type { MenuEntry } from "../../../src/app/menu";
import { LANGUAGE_STORAGE_KEY } from "../../../src/shared/language";
import { logIn, openScreen, SCREEN_HEADING, seriousA11yViolations } from "./console";
import { expect, type useSuperAdminServer } from "./fixtures";
import { MENU, MODULES } from "./modules";
import { resetLinkPath } from "./outbox";
import { standInRecaptcha } from "./recaptcha";

type Language = "en-US" | "cn-ZH";
export type Pass = (typeof PASSES)[number];
type Suite = ReturnType<typeof useSuperAdminServer>;
/** Each screen's two looks: every language, theme and width at least once. */
export const PASSES = [
  { language: "en-US", theme: "light", width: 1366, height: 768 },
  { language: "cn-ZH", theme: "dark", width: 480, height: 900 },
] as const;
const passName = (pass: Pass) => `${pass.language} ${pass.theme} ${pass.width}px`;

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
async function firstId(
  suite: Suite,
  path: string,
  listKey: string,
  fits = (_row: Row) => true,
): Promise<number> {
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
async function issueResetLink(suite: Suite): Promise<string> {
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
async function consolePages(suite: Suite): Promise<string[]> {
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
      suite,
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

async function useLanguage(page: Page, language: Language) {
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [
    LANGUAGE_STORAGE_KEY,
    language,
  ] as const);
}

/** The signed-in administrator's theme, saved as the Setting page saves it. */
async function useTheme(suite: Suite, theme: "light" | "dark") {
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

/** Waits until the screen has drawn its data: a heading, the network quiet, no spinner. */
async function settled(page: Page, quiet: () => boolean) {
  await expect(page.locator(SCREEN_HEADING).first()).toBeVisible();
  await expect.poll(quiet, { intervals: [100, 150, 250] }).toBe(true);
  await expect(page.locator(".ant-spin-spinning, .ant-skeleton-active")).toHaveCount(0);
}

/**
 * The story of one pass, with `suite`'s server: the signed-out screens, then with one sign-in
 * every console page and dialog, in `pass`'s language, theme and width; every screen's serious
 * and critical violations reported together.
 */
export async function checkEveryScreen(page: Page, suite: Suite, pass: Pass) {
  const quiet = networkQuiet(page);
  const found = new Map<string, string[]>();
  const timings = new Map<string, string>();
  const check = async (screen: string) => {
    const t0 = Date.now();
    await settled(page, quiet);
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
  const { language } = pass;

  // A live reset link, as a wallet user gets it by e-mail: its page is public too.
  const resetPath = await issueResetLink(suite);
  await standInRecaptcha(page);
  await page.goto(`${suite.server.url}/login`);
  // The console stores the language it started in once its texts have loaded: a choice stored
  // before that would be overwritten (English), so the pass's language is stored after it.
  await expect
    .poll(() => page.evaluate((key) => localStorage.getItem(key), LANGUAGE_STORAGE_KEY))
    .not.toBeNull();
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

  // Signed in as the first pass signs in (English, 1366 px), then shown in this pass's look.
  await page.setViewportSize({ width: PASSES[0].width, height: PASSES[0].height });
  await useLanguage(page, "en-US");
  await logIn(page, suite.server.url, suite.superAdmin.email, suite.superAdmin.password);
  const pages = await consolePages(suite);
  await page.setViewportSize({ width: pass.width, height: pass.height });
  await useLanguage(page, language);
  await useTheme(suite, pass.theme);
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", pass.theme);
  for (const path of pages) {
    await openScreen(page, path);
    await check(`${passName(pass)} ${path}`);
  }
  for (const { name, path, show, phoneOnly } of DIALOGS) {
    if (phoneOnly && pass.width >= PHONE_WIDTH) continue;
    const where = path(pages);
    await openScreen(page, where);
    await settled(page, quiet);
    await dialog(`${passName(pass)} ${where} ${name}`, () => show(page, language));
  }

  const report = [...found].map(
    ([screen, violations]) =>
      `${screen}: ${violations.length} (${timings.get(screen)})${violations.map((v) => `\n    ${v}`).join("")}`,
  );
  console.log(`axe, serious and critical violations per screen:\n  ${report.join("\n  ")}`);
  expect(found.size).toBeGreaterThan(pagesOf(MENU).length);
  expect([...found].filter(([, violations]) => violations.length > 0)).toEqual([]);
}
