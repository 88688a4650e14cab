/**
 * Size benchmark: builds the console, starts the real server on a fresh data directory, and
 * records in Chromium every JavaScript file the login page and the first console screen (the
 * dashboard after logging in) load. Prints each file's gzip size and the totals.
 *
 *   npm run bench:size            (add -- --no-build to reuse an existing dist/)
 *
 * Targets: first console screen ≤ 400 kB gzip JS (issue 2); each resource in its own lazy chunk;
 * the login page ≤ 400 kB (issue 16: it loads no module declarations, zod or menu table).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { chromium, type Page } from "@playwright/test";
import { chromiumArgs } from "../playwright.config";
import { demoLogins, startServer } from "../tests/e2e/support/server";

const TARGET_FIRST_SCREEN_KB = 400;
const TARGET_LOGIN_KB = 400;

if (!process.argv.includes("--no-build")) {
  execFileSync("node_modules/.bin/vite", ["build", "--logLevel", "warn"], { stdio: "inherit" });
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const server = await startServer({ port: Number(process.env.BENCH_PORT ?? 8190) });
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: chromiumArgs });

function recordScripts(page: Page) {
  const scripts = new Map<string, number>();
  page.on("response", async (response) => {
    // Module preloads arrive as resource type "other", so go by the file, not the request type.
    if (!new URL(response.url()).pathname.endsWith(".js")) return;
    const body = await response.body().catch(() => undefined);
    if (body) scripts.set(new URL(response.url()).pathname, gzipSync(body).length);
  });
  return scripts;
}

function report(title: string, scripts: Map<string, number>) {
  const total = [...scripts.values()].reduce((a, b) => a + b, 0);
  console.log(`\n${title}: ${scripts.size} JS files, ${kb(total)} kB gzip`);
  for (const [path, size] of [...scripts].sort((a, b) => b[1] - a[1])) {
    console.log(`  ${kb(size).padStart(7)} kB  ${path}`);
  }
  return total;
}

try {
  const login = demoLogins(server.output()).get("super administrator");
  if (!login) throw new Error(`no demo login printed:\n${server.output()}`);
  // The login page, as a visitor without a session loads it.
  const visitor = await browser.newContext();
  const loginPage = await visitor.newPage();
  const loginScripts = recordScripts(loginPage);
  await loginPage.goto(`${server.url}/login`, { waitUntil: "networkidle" });
  const loginTotal = report("Login page", loginScripts);

  // Sign in there, then measure the first console screen as a returning administrator opens it:
  // a fresh browser (empty cache) holding only the session (the jwt cookie and storage).
  await loginPage.getByLabel("Email").fill(login.email);
  await loginPage.getByLabel("Password").fill(login.password);
  await loginPage.getByRole("button", { name: "Sign in" }).click();
  await loginPage.waitForURL(/\/dashboard/);
  const session = await visitor.storageState();
  await visitor.close();

  const administrator = await browser.newContext({ storageState: session });
  const consolePage = await administrator.newPage();
  const consoleScripts = recordScripts(consolePage);
  await consolePage.goto(`${server.url}/dashboard`, { waitUntil: "networkidle" });
  await consolePage.getByRole("heading", { name: "Dashboard" }).waitFor();
  const firstScreenTotal = report("First console screen (dashboard, signed in)", consoleScripts);
  await administrator.close();

  const manifest = JSON.parse(readFileSync("dist/.vite/manifest.json", "utf8")) as Record<
    string,
    { file: string; isDynamicEntry?: boolean }
  >;
  const resourceChunks = Object.entries(manifest).filter(([src]) =>
    src.startsWith("src/resources/"),
  );
  console.log(`\nResource modules built as lazy chunks:`);
  for (const [src, chunk] of resourceChunks) {
    const size = gzipSync(readFileSync(`dist/${chunk.file}`)).length;
    console.log(`  ${chunk.isDynamicEntry ? "lazy " : "EAGER"} ${kb(size).padStart(6)} kB  ${src}`);
  }

  console.log(
    `\nlogin page JS: ${kb(loginTotal)} kB gzip (target ≤ ${TARGET_LOGIN_KB} kB: ${
      loginTotal / 1024 <= TARGET_LOGIN_KB ? "met" : "MISSED"
    })`,
  );
  console.log(
    `first console screen JS: ${kb(firstScreenTotal)} kB gzip (target ≤ ${TARGET_FIRST_SCREEN_KB} kB: ${
      firstScreenTotal / 1024 <= TARGET_FIRST_SCREEN_KB ? "met" : "MISSED"
    })`,
  );
} finally {
  await browser.close();
  await server.stop();
}
