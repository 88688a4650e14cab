/**
 * Issue 33 in the browser: an administrator with an authenticator app signs in with the password
 * and the app's code, or a recovery code; a sensitive action whose session's proof has gone stale
 * asks for the code in a dialog and then completes; an unattended console warns with a countdown,
 * can be kept, and otherwise signs out with the reason on the login page.
 */
import type { Page } from "@playwright/test";

import { freshCode } from "../support/totp";
import { logIn } from "./support/console";
import { ageProofOf, forgetUsedCodes } from "./support/administrators";
import { expect, test } from "./support/fixtures";
import { e2ePort } from "./support/ports";
import { demoLogins, startServer, type RunningServer } from "./support/server";

const PORT = e2ePort(150);

let server: RunningServer;
let superAdmin: { email: string; password: string };
let secret: string;
let recoveryCodes: string[];

test.describe.configure({ mode: "serial" });

async function api<T>(token: string, path: string, body?: unknown): Promise<T> {
  const answer = await fetch(`${server.url}/v1${path}`, {
    method: "POST",
    headers: { Authorization: token, "content-type": "application/json" },
    body: JSON.stringify(body ?? {}),
  });
  expect(answer.status, await answer.clone().text()).toBeLessThan(300);
  return (await answer.json()) as T;
}

test.beforeAll(async () => {
  server = await startServer({ port: PORT });
  const login = demoLogins(server.output()).get("super administrator");
  if (!login) throw new Error(`no super administrator login printed:\n${server.output()}`);
  superAdmin = login;
  // The super administrator sets up an authenticator app through the API.
  const { token } = await api<{ token: string }>("", "/api/auth/login", superAdmin);
  ({ secret } = await api<{ secret: string }>(token, "/api/account/factors/totp"));
  ({ recoveryCodes } = await api<{ recoveryCodes: string[] }>(
    token,
    "/api/account/factors/totp/confirm",
    { code: await freshCode(secret) },
  ));
  expect(recoveryCodes).toHaveLength(10);
});

test.afterAll(async () => {
  await server?.stop();
});

async function passwordStep(page: Page) {
  await page.goto(`${server.url}/login`);
  await page.getByLabel("Email", { exact: true }).fill(superAdmin.email);
  await page.getByLabel("Password", { exact: true }).fill(superAdmin.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Confirm it is you" })).toBeVisible();
}

async function signInWithCode(page: Page) {
  await passwordStep(page);
  const code = page.getByLabel("Code from the authenticator app");
  await expect(code).toBeFocused();
  await expect(code).toHaveAttribute("inputmode", "numeric");
  await code.fill(await freshCode(secret));
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard/);
}

test("an administrator with an authenticator app signs in with its code, or a recovery code", async ({
  page,
}) => {
  await signInWithCode(page);
  await page.getByRole("button", { name: "Logout", exact: true }).click();
  await expect(page).toHaveURL(/\/login/);

  await passwordStep(page);
  await page.getByRole("button", { name: "Use a recovery code instead" }).click();
  const field = page.getByLabel("Recovery code", { exact: true });
  await expect(field).toBeFocused();
  // A wrong code is said on the step, which stays.
  await field.fill("AAAA-BBBB-CCCC-DDDD");
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(
    page.getByText(
      "The code is not right, or it was already used. Try the code your app shows now.",
    ),
  ).toBeVisible();
  // Any case, with blanks or dashes.
  await field.fill(recoveryCodes[0]!.toLowerCase().replaceAll("-", " "));
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard/);
});

test("a sensitive action with a stale proof asks for the code, then completes", async ({
  page,
}) => {
  await forgetUsedCodes(server, superAdmin.email, secret);
  await signInWithCode(page);
  // Two hours since the last proof: older than STEP_UP_MINUTES (60 in the stories).
  await ageProofOf(server, superAdmin.email);
  await page.goto(`${server.url}/wallet-policy`);
  await page.getByRole("button", { name: "Change policy" }).click();
  await page.getByLabel("Dormancy period (days)").fill("45");
  await page.getByLabel("Reason for the change").fill("Step-up story");
  await page.getByLabel("Reason for the approver").fill("Checked by the step-up story");
  const save = () => page.getByRole("button", { name: "Save the new policy" }).last().click();
  await save();
  const review = page.getByRole("dialog", { name: "Check the changes" });
  await review.getByRole("button", { name: "Save the new policy" }).click();

  // Cancelled: the action is refused with the reason, and nothing typed is lost.
  const stepUp = page.getByRole("dialog", { name: "Confirm who you are to continue" });
  await expect(stepUp).toBeVisible();
  await stepUp.getByRole("button", { name: "Cancel", exact: true }).click();
  await expect(page.getByText("Confirm who you are to continue.", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Dormancy period (days)")).toHaveValue("45");
  await expect(page.getByLabel("Reason for the change")).toHaveValue("Step-up story");

  // Confirmed: a wrong code is said in the dialog, the right one completes the action.
  // The review closed as the policy was sent: save and review again.
  await expect(review).toBeHidden();
  await save();
  await review.getByRole("button", { name: "Save the new policy" }).click();
  await expect(stepUp).toBeVisible();
  const code = stepUp.getByLabel("Code from the authenticator app");
  await expect(code).toBeFocused();
  await code.fill("000000");
  await stepUp.getByRole("button", { name: "Confirm", exact: true }).click();
  await expect(
    stepUp.getByText(
      "The code is not right, or it was already used. Try the code your app shows now.",
    ),
  ).toBeVisible();
  await code.fill(await freshCode(secret));
  const answered = page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === "/v1/api/wallet-policies" && response.status() === 202,
  );
  await stepUp.getByRole("button", { name: "Confirm", exact: true }).click();
  const { changeRequest } = (await (await answered).json()) as {
    changeRequest: { reference: string };
  };
  await expect(stepUp).toBeHidden();
  await expect(
    page.getByText(
      `Sent for approval as ${changeRequest.reference}: another administrator must approve it.`,
    ),
  ).toBeVisible();
});

test("an unattended console warns, can be kept, and otherwise signs out saying why", async ({
  page,
}) => {
  const finance = demoLogins(server.output()).get("finance") ?? {
    email: "finance@wallet.example",
    password: "Finance#2026",
  };
  await page.clock.install();
  await logIn(page, server.url, finance.email, finance.password);

  // 13 minutes and 5 s unused: a minute before the sign-out (15 minutes less a minute of slack).
  await page.clock.fastForward("13:05");
  const warning = page.getByRole("dialog", { name: "Are you still there?" });
  await expect(warning).toBeVisible();
  await expect(warning.getByRole("timer")).toHaveText(
    /^You will be signed out in (5\d) seconds\.$/,
  );
  const first = await warning.getByRole("timer").textContent();
  await page.clock.runFor(2_000);
  await expect(warning.getByRole("timer")).not.toHaveText(first!);
  const heartbeat = page.waitForRequest(
    (request) => new URL(request.url()).pathname === "/v1/api/auth/session",
  );
  await warning.getByRole("button", { name: "Stay signed in", exact: true }).click();
  expect((await heartbeat).headers()["x-idle-seconds"]).toBe("0");
  await expect(warning).toBeHidden();
  await page.clock.fastForward("12:00");
  await expect(warning).toBeHidden();

  // Left alone until the countdown ends: signed out, and the login page says why.
  await page.clock.fastForward("01:10");
  await expect(warning).toBeVisible();
  await page.clock.fastForward("01:00");
  await expect(page).toHaveURL(/\/login/);
  await expect(
    page.getByText(
      "You were signed out because the console was not used for a while. Please sign in again.",
    ),
  ).toBeVisible();
});
