/**
 * Passkeys in the browser (issue 33), with Chromium's virtual authenticator standing in for a
 * fingerprint reader: an administrator adds a passkey on Setting (its recovery codes shown once),
 * then signs in with the password and the passkey, and with the passkey alone; a sensitive change
 * whose proof has gone stale is confirmed with the passkey; the passkey is removed.
 *
 * WebAuthn binds a passkey to a domain, never an IP address: the pages are opened on
 * `localhost`, the server's default relying party.
 */
import type { CDPSession, Page } from "@playwright/test";

import { logIn, logOut, seriousA11yViolations } from "./support/console";
import { ageProofOf } from "./support/administrators";
import { expect, test } from "./support/fixtures";
import { e2ePort } from "./support/ports";
import { demoLogins, startServer, type RunningServer } from "./support/server";

const PORT = e2ePort(170);

let server: RunningServer;
let base: string;
let superAdmin: { email: string; password: string };

test.beforeAll(async () => {
  server = await startServer({ port: PORT });
  base = server.url.replace("127.0.0.1", "localhost");
  const login = demoLogins(server.output()).get("super administrator");
  if (!login) throw new Error(`no super administrator login printed:\n${server.output()}`);
  superAdmin = login;
});

test.afterAll(async () => {
  await server?.stop();
});

/** A platform authenticator that verifies its user at once, as a fingerprint reader would. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

async function passkeysHeld(cdp: CDPSession, authenticatorId: string) {
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  return credentials.length;
}

test("an administrator adds a passkey, signs in and confirms a change with it, and removes it", async ({
  page,
}) => {
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
  await page.setViewportSize({ width: 1366, height: 768 });
  await logIn(page, base, superAdmin.email, superAdmin.password);
  await page.goto(`${base}/setting`);
  const twoStep = page.locator("section").filter({
    has: page.getByRole("heading", { name: "Two-step sign-in", exact: true }),
  });

  // Added with this browser's name, the first factor: its recovery codes are shown once.
  await expect(twoStep).toContainText("No passkey is added.");
  await twoStep.getByRole("button", { name: "Add a passkey" }).click();
  await expect(twoStep.getByLabel("Name of the passkey")).toHaveValue("Chrome on Linux");
  await twoStep.getByRole("button", { name: "Continue", exact: true }).click();
  const codes = twoStep.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(codes).toHaveCount(10);
  expect(await passkeysHeld(cdp, authenticatorId)).toBe(1);
  await twoStep.getByRole("button", { name: "I have saved them" }).click();
  const passkeys = twoStep.getByRole("list", { name: "Your passkeys" }).getByRole("listitem");
  await expect(passkeys).toHaveCount(1);
  await expect(passkeys).toContainText("Chrome on Linux");
  await expect(passkeys).toContainText("never used");
  await expect(twoStep).toContainText("10 recovery codes left");
  expect(await seriousA11yViolations(page)).toEqual([]);
  // On a phone the list fits: nothing sticks out sideways.
  await page.setViewportSize({ width: 480, height: 900 });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
    .toBeLessThanOrEqual(480);
  await page.setViewportSize({ width: 1366, height: 768 });

  // The password, then the passkey as the second step.
  await logOut(page);
  await page.goto(`${base}/login`);
  await page.getByLabel("Email", { exact: true }).fill(superAdmin.email);
  await page.getByLabel("Password", { exact: true }).fill(superAdmin.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Confirm it is you" })).toBeVisible();
  await expect(
    page.getByRole("button", { name: "Use the code from the authenticator app instead" }),
  ).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Use a recovery code instead" })).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.getByRole("button", { name: "Use a passkey", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard/);

  // The passkey alone, no password.
  await logOut(page);
  await page.goto(`${base}/login`);
  await page.getByRole("button", { name: "Continue with a passkey" }).click();
  await expect(page).toHaveURL(/\/dashboard/);

  // Two hours since the last proof (older than the stories' STEP_UP_MINUTES): removing the
  // passkey, a sensitive change, asks for a proof first, given with the passkey itself.
  await ageProofOf(server, superAdmin.email);
  await page.goto(`${base}/setting`);
  await expect(passkeys).toContainText("last used");
  await twoStep.getByRole("button", { name: "Remove the passkey Chrome on Linux" }).click();
  await page.getByRole("tooltip").getByRole("button", { name: "Remove", exact: true }).click();
  const stepUp = page.getByRole("dialog", { name: "Confirm who you are to continue" });
  await expect(stepUp).toBeVisible();
  // Scanned once the screen has settled: the mask over the page and nothing still moving in (the
  // dialog, its mask, the busy Remove button's spinner). A scan that caught the spinner coming in
  // saw another page than one a moment later, and the verdict on the busy button under the mask
  // changed with it (a flake in CI).
  await expect(page.locator(".ant-modal-mask")).toBeVisible();
  await expect(
    page.locator(".ant-zoom-appear, .ant-zoom-enter, .ant-fade-appear, .ant-fade-enter"),
  ).toHaveCount(0);
  await expect(
    page.locator(".ant-btn-loading-icon-motion-appear, .ant-btn-loading-icon-motion-enter"),
  ).toHaveCount(0);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await stepUp.getByRole("button", { name: "Use a passkey", exact: true }).click();
  await expect(stepUp).toBeHidden();
  await expect(page.getByText("The passkey was removed")).toBeVisible();
  await expect(twoStep).toContainText("No passkey is added.");
  await expect(twoStep).toContainText("No authenticator app is set up");
});
