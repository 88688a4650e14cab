/**
 * The calculator paints from its HTML (issue 18): the build writes `/` as the page itself, the
 * browser hydrates it without a console error, a warning or a layout shift, the inputs work at
 * once (even what was typed before the script ran), and a visitor who reads Chinese never sees
 * the English page. The console's paths get none of it, and neither does `/` when its `?id=`
 * names one of the shell's pages (issue 31): that page opens there, as on every other path.
 */
import { readFileSync } from "node:fs";
import type { Page, Route } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { e2ePort } from "./support/ports";
import { logIn } from "./support/console";
import { standInRecaptcha } from "./support/recaptcha";
import { demoLogins, startServer, type RunningServer } from "./support/server";

const PORT = e2ePort(90);
let server: RunningServer;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  server = await startServer({ port: PORT });
});

test.afterAll(async () => {
  await server?.stop();
});

type Table = { [key: string]: string | Table };
const english = JSON.parse(readFileSync("locales/en-US/calculator.json", "utf8")) as Table;
const word = (key: string): string => {
  const found = key
    .split(".")
    .reduce<string | Table | undefined>(
      (node, part) => (typeof node === "object" ? node[part] : undefined),
      english,
    );
  if (typeof found !== "string") throw new Error(`no text ${key}`);
  return found;
};
const wordsUnder = (key: string, leaf: string): string[] =>
  Object.keys(english[key] as Table).map((name) => word(`${key}.${name}.${leaf}`));

/** A page's text as a reader without scripts gets it: tags out, entities decoded. */
function textOf(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

/** Holds back the page's entry script until `release()`: the page is then only its HTML. */
async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route: Route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** Whether React has taken over the page's HTML (its fiber is on the element). */
const hydrated = (page: Page) =>
  page.evaluate(() => {
    const heading = document.querySelector("h1");
    return heading !== null && Object.keys(heading).some((key) => key.startsWith("__react"));
  });

/** Sums the page's layout shifts, as CLS counts them (none right after the visitor's input). */
function observeLayoutShifts() {
  const shifts = { total: 0 };
  (window as unknown as { __shifts: typeof shifts }).__shifts = shifts;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
    })[]) {
      if (!entry.hadRecentInput) shifts.total += entry.value;
    }
  }).observe({ type: "layout-shift", buffered: true });
}

test("`/` holds the calculator's sections, fields and result groups as text, before any script", async ({
  browser,
}) => {
  const response = await fetch(`${server.url}/`);
  expect(response.status).toBe(200);
  const html = await response.text();
  expect(html).toContain("<title>Financial Goal Calculator</title>");
  const text = textOf(html);
  for (const expected of [
    word("page.heading"),
    word("page.intro"),
    word("form.title"),
    word("form.sections.assets"),
    word("form.sections.liabilities"),
    word("form.sections.cashflow"),
    ...wordsUnder("fields", "label"),
    word("fields.monthlyTotalInflow.help"),
    word("fields.cashAndCashEquivalents.help"),
    word("results.title"),
    word("results.groups.cashflowHealth"),
    word("results.groups.debtHealth"),
    word("results.groups.assetHealth"),
    ...wordsUnder("ratios", "name"),
    word("report.open"),
  ]) {
    expect(text, expected).toContain(expected);
  }

  // Painted as it is, by a browser that runs no script at all.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${server.url}/`);
  await expect(page.getByRole("heading", { level: 1, name: word("page.heading") })).toBeVisible();
  for (const section of ["assets", "liabilities", "cashflow"]) {
    await expect(page.getByRole("group", { name: word(`form.sections.${section}`) })).toBeVisible();
  }
  await expect(page.getByLabel(/^Cash and Cash Equivalents/)).toBeVisible();
  await expect(page.getByRole("button", { name: word("report.open") })).toBeVisible();
  await context.close();
});

test("the console's paths get the console's page, without the calculator's HTML", async () => {
  for (const path of ["/login", "/dashboard"]) {
    const html = await (await fetch(`${server.url}${path}`)).text();
    expect(html, path).toContain('<div id="root"></div>');
    expect(html, path).not.toContain(word("form.title"));
    expect(html, path).not.toContain("<script>");
  }
});

test("hydration keeps the HTML, logs nothing, shifts nothing, and takes over what was typed", async ({
  page,
}) => {
  const messages: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") messages.push(message.text());
  });
  await page.addInitScript(observeLayoutShifts);
  const release = await holdScripts(page);
  await page.goto(`${server.url}/`, { waitUntil: "commit" });

  // The HTML alone: painted, and already an input to type into.
  const cash = page.getByLabel(/^Cash and Cash Equivalents/);
  await expect(cash).toBeVisible();
  expect(await hydrated(page)).toBe(false);
  await page.evaluate(() => {
    (window as unknown as { __before: Element | null }).__before = document.querySelector("main");
  });
  await cash.fill("1200");

  release();
  await expect.poll(() => hydrated(page)).toBe(true);
  // The same elements, taken over rather than replaced.
  expect(
    await page.evaluate(
      () =>
        (window as unknown as { __before: Element | null }).__before ===
        document.querySelector("main"),
    ),
  ).toBe(true);
  await expect(cash).toHaveValue("1200");
  const liquidity = page
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: "Basic Liquidity Ratio" }) });
  await expect(liquidity).toContainText("Unlimited");
  await page.getByLabel(/^Total Monthly Expenses/).fill("400");
  await expect(liquidity).toContainText("3.0 months");

  expect(messages).toEqual([]);
  const shift = await page.evaluate(
    () => (window as unknown as { __shifts: { total: number } }).__shifts.total,
  );
  expect(shift).toBeLessThanOrEqual(0.02);
});

test("a fresh visit hydrates without a layout shift, and fetches neither the dialog nor Chinese", async ({
  page,
}) => {
  await standInRecaptcha(page);
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith(".js")) scripts.push(new URL(request.url()).pathname);
  });
  await page.addInitScript(observeLayoutShifts);
  await page.goto(`${server.url}/`);
  await expect.poll(() => hydrated(page)).toBe(true);
  await page.waitForLoadState("networkidle");
  const shift = await page.evaluate(
    () => (window as unknown as { __shifts: { total: number } }).__shifts.total,
  );
  expect(shift).toBeLessThanOrEqual(0.02);
  expect(scripts.filter((path) => /report-dialog|recaptcha/.test(path))).toEqual([]);
  // Only the visitor's language: English texts are one chunk, and the Chinese one never comes.
  const chunks = await (await fetch(`${server.url}/`)).text();
  const chinese = /"cn-ZH":[`"](\/assets\/[^`"]+)/.exec(chunks)?.[1];
  expect(chinese).toBeDefined();
  expect(scripts).not.toContain(chinese);

  // The dialog arrives when asked for.
  await page.getByRole("button", { name: word("report.open") }).click();
  await expect(page.getByRole("dialog", { name: word("report.title") })).toBeVisible();
  expect(scripts.some((path) => /report-dialog/.test(path))).toBe(true);
});

test("a visitor who reads Chinese never sees the English page, and finds their figures", async ({
  page,
}) => {
  await page.addInitScript(() => {
    if (sessionStorage.getItem("seeded")) return;
    sessionStorage.setItem("seeded", "1");
    localStorage.setItem("language", "cn-ZH");
    localStorage.setItem("calculator.inputs", JSON.stringify({ cashAndCashEquivalents: "30000" }));
  });
  const release = await holdScripts(page);
  await page.goto(`${server.url}/`, { waitUntil: "commit" });

  // Before the script: the language is set and the English HTML is not shown.
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await expect(page.locator("h1")).toBeAttached();
  await expect(page.getByRole("heading", { name: word("page.heading") })).toBeHidden();

  release();
  await expect(page.getByRole("heading", { level: 1, name: "财务目标计算器" })).toBeVisible();
  await expect(page.getByLabel(/^现金及现金等价物/)).toHaveValue("30000");
  await expect(page).toHaveTitle("财务目标计算器");
  await expect(page.locator("html")).not.toHaveAttribute("data-calc-wait");
});

const EDITOR = "/?id=create-edit-help-centre-editor";

/**
 * Records, from before the page's first byte is parsed, whether the calculator's heading was ever
 * in the page's body: the observer's callback runs after every change (the parser's included) and
 * before the next paint, so nothing painted escapes it. (The <title> aside: the console's page
 * shares the calculator's until the console names the tab.)
 */
function watchForCalculator(heading: string) {
  const seen = { calculator: false };
  (window as unknown as { __seen: typeof seen }).__seen = seen;
  new MutationObserver(() => {
    if (document.body?.textContent?.includes(heading)) seen.calculator = true;
  }).observe(document, { childList: true, subtree: true, characterData: true });
}
const calculatorSeen = (page: Page) =>
  page.evaluate(() => (window as unknown as { __seen: { calculator: boolean } }).__seen.calculator);

function superAdmin() {
  const login = demoLogins(server.output()).get("super administrator");
  if (!login) throw new Error(`no demo logins printed:\n${server.output()}`);
  return login;
}

test("signed in, `/?id=create-edit-help-centre-editor` opens the help centre's editor, never the calculator", async ({
  page,
}) => {
  const { email, password } = superAdmin();
  await logIn(page, server.url, email, password);
  await page.addInitScript(watchForCalculator, word("page.heading"));

  const response = await page.goto(`${server.url}${EDITOR}`);
  const html = (await response?.text()) ?? "";
  // The console's page: no calculator in it, nor its early script.
  expect(html).toContain('<div id="root"></div>');
  expect(textOf(html.slice(html.indexOf("<body")))).not.toContain(word("page.heading"));
  expect(html).not.toContain(word("form.title"));
  expect(html).not.toContain("<script>");

  await expect(page.getByRole("textbox", { name: "Body (English)" })).toBeVisible();
  await expect(page).toHaveURL(`${server.url}${EDITOR}`);
  expect(await calculatorSeen(page)).toBe(false);
  await expect(page.getByRole("heading", { name: word("page.heading") })).toHaveCount(0);

  // An id that names no shell page leaves `/` the calculator (which the watch does see).
  await page.goto(`${server.url}/?id=unknown`);
  await expect(page.getByRole("heading", { level: 1, name: word("page.heading") })).toBeVisible();
  expect(await calculatorSeen(page)).toBe(true);
});

test("signed out, `/?id=create-edit-help-centre-editor` asks for the login first, then opens the editor", async ({
  page,
}) => {
  await page.addInitScript(watchForCalculator, word("page.heading"));
  await page.goto(`${server.url}${EDITOR}`);
  await expect(page).toHaveURL(`${server.url}/login?to=${encodeURIComponent(EDITOR)}`);
  const { email, password } = superAdmin();
  await page.getByLabel(/^Email$/).fill(email);
  await page.getByLabel(/^Password$/).fill(password);
  await page.getByRole("button", { name: /^Sign in$/ }).click();

  await expect(page).toHaveURL(`${server.url}${EDITOR}`);
  await expect(page.getByRole("textbox", { name: "Body (English)" })).toBeVisible();
  expect(await calculatorSeen(page)).toBe(false);
});
