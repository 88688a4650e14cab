/**
 * Issue 33 in the browser, on the administrator's own Setting page: a fresh administrator sets up
 * an authenticator app with the key the page shows (the code computed here, as the app would),
 * sees ten recovery codes once; then finds their browser's session and one an API sign-in made,
 * ends that one, and its token stops working. The page fits a 480 px screen and has no serious accessibility violation at each step.
 */
import type { Page } from "@playwright/test";

import { codeOf } from "../support/totp";
import { createAdministrator } from "./support/administrators";
import { logIn, seriousA11yViolations } from "./support/console";
import { expect, test, useSuperAdminServer } from "./support/fixtures";

const suite = useSuperAdminServer(125);

/**
 * The page as it is now, at 1366 px and at 480 px wide: no serious accessibility violation, and
 * on the phone nothing sticks out sideways. Back to 1366 px after.
 */
async function expectUsableEverywhere(page: Page) {
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 480, height: 900 });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
    .toBeLessThanOrEqual(480);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 1366, height: 768 });
}

/** Signs in through the API with the password and the authenticator app's next code. */
async function signInWithApp(email: string, password: string, secret: string) {
  const api = `${suite.server.url}/v1/api/auth`;
  const post = (path: string, body: unknown) =>
    fetch(`${api}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const first = (await (await post("/login", { email, password })).json()) as {
    secondFactor?: { ticket: string; methods: string[] };
  };
  expect(first.secondFactor?.methods).toContain("totp");
  // The code typed on the page used this 30 s step; the next one is accepted too, once.
  const code = codeOf(secret, 1);
  const second = await post("/login/second-factor", {
    ticket: first.secondFactor!.ticket,
    method: "totp",
    code,
  });
  expect(second.status, await second.clone().text()).toBe(200);
  return ((await second.json()) as { token: string }).token;
}

test("an administrator sets up an authenticator app and ends a session made elsewhere", async ({
  page,
}) => {
  const admin = await createAdministrator(suite.server, suite.token, "Security Story", [0]);
  await page.setViewportSize({ width: 1366, height: 768 });
  await logIn(page, suite.server.url, admin.email, admin.password);
  await page.goto(`${suite.server.url}/setting`);

  const twoStep = page.locator("section").filter({
    has: page.getByRole("heading", { name: "Two-step sign-in", exact: true }),
  });
  await expect(twoStep).toContainText("No authenticator app is set up");
  await twoStep.getByRole("button", { name: "Set up an authenticator app" }).click();
  await expect(
    twoStep.getByRole("img", {
      name: "QR code to add the UCSI Wallet console to your authenticator app",
    }),
  ).toBeVisible();
  await expectUsableEverywhere(page);

  // The key as a person would type it into their app: read from the page, groups of four.
  const shownKey = twoStep.getByText(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
  const secret = ((await shownKey.textContent()) ?? "").replace(/ /g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const code = codeOf(secret);
  await twoStep.getByLabel("Code from the app").fill(code);
  await twoStep.getByRole("button", { name: "Confirm", exact: true }).click();

  const codes = twoStep.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(codes).toHaveCount(10);
  for (const text of await codes.allTextContents()) {
    expect(text).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
  }
  await expect(twoStep).toContainText("they will not be shown again");
  await expectUsableEverywhere(page);
  await twoStep.getByRole("button", { name: "I have saved them" }).click();
  await expect(twoStep.getByRole("list", { name: "Recovery codes" })).toHaveCount(0);
  await expect(twoStep).toContainText("Authenticator app set up since");
  await expect(twoStep).toContainText("10 recovery codes left");

  // A second session of the same account, from a program rather than this browser.
  const apiToken = await signInWithApp(admin.email, admin.password, secret);
  const sessionsOf = (token: string) =>
    fetch(`${suite.server.url}/v1/api/account/sessions`, { headers: { Authorization: token } });
  expect((await sessionsOf(apiToken)).status).toBe(200);

  await page.reload();
  const sessions = page.getByRole("list", { name: "Open sessions" }).getByRole("listitem");
  await expect(sessions).toHaveCount(2);
  const mine = sessions.filter({ hasText: "This device" });
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText("Chrome on Linux");
  await expect(mine.getByRole("button")).toHaveCount(0);
  await expectUsableEverywhere(page);

  const other = sessions.filter({ hasNotText: "This device" });
  await other.getByRole("button", { name: /^End the session of/ }).click();
  await page.getByRole("tooltip").getByRole("button", { name: "End", exact: true }).click();
  await expect(page.getByText("The session was ended")).toBeVisible();
  await expect(sessions).toHaveCount(1);
  await expect(page.getByText("This is your only session.")).toBeVisible();
  expect((await sessionsOf(apiToken)).status).toBe(401);
});
