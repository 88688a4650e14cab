/**
 * Issue 33, items 2 and 5 in the browser: where the settings require a second factor, an
 * administrator without one is taken to set one up right after the password and sees nothing
 * else until it is done; the super administrator sees that administrator's sign-in (second
 * factor, open sessions, login history) and resets the factor (a second approver approves);
 * and the demo's two-step administrator signs in with the secret printed at start.
 */
import type { Page } from "@playwright/test";

import { codeOf } from "../support/totp";
import { logIn } from "./support/console";
import { createAdministrator } from "./support/administrators";
import { withDatabase } from "./support/database";
import { expect, test } from "./support/fixtures";
import { e2ePort } from "./support/ports";
import { demoLogins, signInSuperAdmin, startServer, type RunningServer } from "./support/server";

const PORT = e2ePort(160);

let server: RunningServer;
let superToken: string;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  server = await startServer({ port: PORT });
  ({ token: superToken } = await signInSuperAdmin(server));
});

test.afterAll(async () => {
  await server?.stop();
});

async function requireSecondFactor(value: "everyone" | "nobody") {
  // As an approved change of Global would leave it (that page's own story is Global's).
  await withDatabase(server.dataDir, (client) =>
    client.query(
      `insert into global_settings (key, value) values ('secondFactorRequired', to_jsonb($1::text))
       on conflict (key) do update set value = excluded.value`,
      [value],
    ),
  );
}

async function passwordStep(page: Page, email: string, password: string) {
  await page.goto(`${server.url}/login`);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

test("a required second factor is set up right after the password, then the console opens; the super administrator resets it", async ({
  page,
}) => {
  const admin = await createAdministrator(server, superToken, "Required Factor", [0]);
  await requireSecondFactor("everyone");
  try {
    await passwordStep(page, admin.email, admin.password);
    await expect(page.getByRole("heading", { name: "Set up two-step sign-in" })).toBeVisible();
    // Nothing of the console meanwhile: no menu.
    await expect(page.getByRole("navigation")).toHaveCount(0);
    await page.getByRole("button", { name: "Set up an authenticator app" }).click();
    const shownKey = page.getByText(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
    const secret = ((await shownKey.textContent()) ?? "").replace(/ /g, "");
    await page.getByLabel("Code from the app").fill(codeOf(secret));
    await page.getByRole("button", { name: "Confirm", exact: true }).click();
    await expect(
      page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem"),
    ).toHaveCount(10);
    await page.getByRole("button", { name: "I have saved them" }).click();
    await expect(page.getByRole("navigation")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Set up two-step sign-in" })).toHaveCount(0);
  } finally {
    await requireSecondFactor("nobody");
  }

  // The super administrator's view of that administrator.
  const superAdmin = demoLogins(server.output()).get("super administrator")!;
  const context = await page.context().browser()!.newContext();
  const other = await context.newPage();
  await logIn(other, server.url, superAdmin.email, superAdmin.password);
  await other.goto(`${server.url}/manage-admin/${admin.id}`);
  const signIn = other.locator("section").filter({
    has: other.getByRole("heading", { name: "Sign-in", exact: true }),
  });
  await expect(signIn).toContainText("Authenticator app");
  await expect(
    signIn.getByRole("list", { name: "Open sessions" }).getByRole("listitem"),
  ).toHaveCount(1);
  const history = other.locator("section").filter({
    has: other.getByRole("heading", { name: "History", exact: true }),
  });
  await expect(history).toContainText("Signed in");
  await expect(history).toContainText("Set up an authenticator app");

  await other.getByRole("button", { name: "Reset second factor" }).click();
  const dialog = other.getByRole("dialog");
  await expect(dialog).toContainText("a second administrator approves this");
  await dialog.getByRole("textbox").fill("Lost phone; identity checked by video call");
  await dialog.getByRole("button", { name: /Send for approval|Reset second factor/ }).click();
  await expect(other.getByText(/Sent for approval as CR/)).toBeVisible();
  await context.close();
});

test("the demo's two-step administrator signs in with the secret printed at start", async ({
  page,
}) => {
  const printed =
    /^(\S+@\S+) also needs a code from an authenticator app: add the secret ([A-Z2-7]+) /m.exec(
      server.output(),
    );
  expect(printed, server.output()).not.toBeNull();
  const [, email, secret] = printed!;
  const login = demoLogins(server.output()).get("two-step administrator");
  expect(login?.email).toBe(email);
  await passwordStep(page, email!, login!.password);
  await page.getByLabel("Code from the authenticator app").fill(codeOf(secret!));
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard/);
});
