/**
 * The browser stories' `test`: Playwright's, with a page that fails the test on any uncaught
 * exception or console error. A blank screen usually starts as one of these, so no story may pass
 * while the console is quietly broken. Every spec imports `test` and `expect` from here.
 */
import { expect, test as base, type BrowserContext, type ConsoleMessage } from "@playwright/test";

import { logIn } from "./console";
import { e2ePort } from "./ports";
import { demoLogins, startWithSuperAdmin } from "./server";

/**
 * What Chromium logs by itself for a request that failed on the network side: an error status
 * (the deliberate 401s, 403s and 500s of the error stories) or a server that is not there. The
 * console handles these; the browser still reports them, and they are no fault of the page.
 */
const EXPECTED_NETWORK_ERRORS: readonly RegExp[] = [
  /^Failed to load resource: the server responded with a status of [45]\d\d\b/,
  /^Failed to load resource: net::ERR_CONNECTION_REFUSED$/,
];

function isExpectedNetworkError(message: ConsoleMessage): boolean {
  return EXPECTED_NETWORK_ERRORS.some((pattern) => pattern.test(message.text()));
}

export const test = base.extend({
  page: async ({ page }, use) => {
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(`uncaught exception: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() !== "error" || isExpectedNetworkError(message)) return;
      problems.push(`console error: ${message.text()} (${message.location().url})`);
    });
    await use(page);
    expect(problems, "the page must log no uncaught exception and no console error").toEqual([]);
  },
});

export { expect };

/** A demo login the server printed at start (`<role>: <email> / <password>`). */
export type DemoLogin = { email: string; password: string };

/**
 * A spec's own server on `E2E_PORT_BASE + portOffset`, started before its first test and stopped
 * after its last, with the super administrator's demo login and API token, and `login(role)`:
 * any other demo login it printed ("user desk", "finance", "finance checker", …).
 */
export function useSuperAdminServer(portOffset: number) {
  const suite = {} as Awaited<ReturnType<typeof startWithSuperAdmin>> & {
    login: (role: string) => DemoLogin;
  };
  test.beforeAll(async () => {
    Object.assign(suite, await startWithSuperAdmin(e2ePort(portOffset)));
    const logins = demoLogins(suite.server.output());
    suite.login = (role) => {
      const login = logins.get(role);
      if (!login) throw new Error(`no demo login "${role}" printed:\n${suite.server.output()}`);
      return login;
    };
  });
  test.afterAll(async () => {
    await suite.server?.stop();
  });
  return suite;
}

/**
 * Signs `suite`'s super administrator in once, through the login page, and opens every test of
 * the file with that session (storageState): for stories about what a signed-in console shows,
 * not about signing in. Call after useSuperAdminServer, at the top of the file.
 */
export function useSignedInSuperAdmin(suite: ReturnType<typeof useSuperAdminServer>) {
  let signedIn: Awaited<ReturnType<BrowserContext["storageState"]>>;
  test.beforeAll(async ({ browser }) => {
    const context = await browser.newContext();
    await logIn(
      await context.newPage(),
      suite.server.url,
      suite.superAdmin.email,
      suite.superAdmin.password,
    );
    signedIn = await context.storageState();
    await context.close();
  });
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from its pattern
  test.use({ storageState: async ({}, use) => use(signedIn) });
}
