/**
 * Issue 30 in the browser: nobody sets a colleague's password. The super administrator sends an
 * administrator a reset link from their page; the administrator opens the e-mailed link in their
 * own browser, sets a password and signs in with it. An administrator holding only Admin (8) sees
 * a more powerful colleague's page without the buttons the server would refuse, and their
 * permissions read-only. A new administrator and a change of permissions wait for a second
 * approver (four eyes): the second super administrator approves them through the API.
 */
import type { PendingApprovalAnswer } from "../../src/shared/kit/four-eyes";
import { logIn } from "./support/console";
import { expect, test, useSuperAdminServer } from "./support/fixtures";
import { resetLinkPath } from "./support/outbox";
import { demoLogins } from "./support/server";

const suite = useSuperAdminServer(140);

test.describe.configure({ mode: "serial" });

let counter = 0;

/**
 * The second super administrator approves a change request, as Pending approvals would; answers
 * the id of what it made (a new record's).
 */
async function approveAsApprover(id: number, remark: string): Promise<number> {
  const approver = demoLogins(suite.server.output()).get("second super administrator") ?? {
    email: "approver@wallet.example",
    password: "Approver#2026",
  };
  const session = await fetch(`${suite.server.url}/v1/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(approver),
  });
  const { token } = (await session.json()) as { token: string };
  const decided = await fetch(`${suite.server.url}/v1/api/change-requests/${id}`, {
    method: "PATCH",
    headers: { Authorization: token, "content-type": "application/json" },
    body: JSON.stringify({ action: "approve", remark }),
  });
  expect(decided.status, await decided.clone().text()).toBe(200);
  const { status, resultId } = (await decided.json()) as { status: string; resultId: number };
  expect(status).toBe("approved");
  return resultId;
}

/**
 * A new administrator created through the API by the super administrator, with a reason for the
 * approver, and approved by the second super administrator.
 */
async function createAdministrator(permissions: number[]) {
  counter += 1;
  const admin = {
    name: `Reset Story ${counter}`,
    email: `reset.story.${counter}.${Date.now()}@wallet.example`,
    password: "Story#Start2026",
    permissions,
  };
  const sent = await fetch(`${suite.server.url}/v1/api/administrators`, {
    method: "POST",
    headers: {
      Authorization: suite.token,
      "content-type": "application/json",
      "x-change-reason": encodeURIComponent("Reset story: a new colleague"),
    },
    body: JSON.stringify(admin),
  });
  expect(sent.status, await sent.clone().text()).toBe(202);
  const { changeRequest } = (await sent.json()) as PendingApprovalAnswer;
  const id = await approveAsApprover(changeRequest.id, "Agreed");
  return { ...admin, id };
}

test("the super administrator e-mails a reset link; its owner sets a password and signs in", async ({
  page,
  browser,
}) => {
  const colleague = await createAdministrator([0, 33]);
  await logIn(page, suite.server.url, suite.superAdmin.email, suite.superAdmin.password);
  await page.goto(`${suite.server.url}/manage-admin/${colleague.id}`);
  await page.getByRole("button", { name: `Send password reset link to ${colleague.name}` }).click();
  const dialog = page.getByRole("dialog", {
    name: `Send ${colleague.name} a password reset link?`,
  });
  await expect(dialog).toContainText(`A link valid for one hour goes to ${colleague.email}`);
  await dialog.getByRole("button", { name: "Send password reset link" }).click();
  await expect(
    page.getByText(`A password reset link was sent to ${colleague.name} at ${colleague.email}`),
  ).toBeVisible();

  // The colleague's own browser: no console session.
  const context = await browser.newContext();
  const own = await context.newPage();
  const path = resetLinkPath(suite.server.dataDir, colleague.email);
  expect(path).toMatch(/^\/login\/reset-password\?token=/);
  await own.goto(`${suite.server.url}${path}`);
  await expect(
    own.getByRole("heading", { name: "Set your UCSI Wallet console password" }),
  ).toBeVisible();
  await expect(own.getByText(`Choose a new console password for ${colleague.name}`)).toBeVisible();
  await own.getByLabel("New password", { exact: true }).fill("Fresh#Console26");
  await own.getByLabel("Repeat the new password").fill("Fresh#Console26");
  await own.getByRole("button", { name: "Set password" }).click();
  await expect(own.getByText("Your password is set")).toBeVisible();
  await own.getByRole("button", { name: "Go to sign-in" }).click();
  await logIn(own, suite.server.url, colleague.email, "Fresh#Console26");
  await context.close();
});

test("an Admin (8) holder cannot act on a colleague holding codes it lacks", async ({ page }) => {
  const holder = await createAdministrator([8]);
  const finance = await createAdministrator([8, 33, 35]);
  await logIn(page, suite.server.url, holder.email, holder.password);
  await page.goto(`${suite.server.url}/manage-admin/${finance.id}`);
  await expect(page.getByRole("heading", { name: finance.name })).toBeVisible();
  await expect(
    page.getByText("You do not hold every permission this administrator holds"),
  ).toBeVisible();
  for (const name of ["Edit", "Send password reset link", "Disable", "Ban"]) {
    await expect(page.getByRole("button", { name, exact: true })).toHaveCount(0);
  }
  await expect(page.getByRole("button", { name: "Save permissions" })).toHaveCount(0);
});

test("power moves through the administrators' declared actions: status and permissions", async ({
  page,
}) => {
  const colleague = await createAdministrator([0]);
  await logIn(page, suite.server.url, suite.superAdmin.email, suite.superAdmin.password);
  await page.goto(`${suite.server.url}/manage-admin/${colleague.id}`);
  await expect(page.getByRole("heading", { name: colleague.name })).toBeVisible();

  // The permission editor: one more code, sent through PATCH …/{id}/permissions, where it waits
  // for a second approver, who reads the reason.
  await expect(
    page.getByText("This change waits for a second approver before it is applied."),
  ).toBeVisible();
  await page.getByRole("checkbox", { name: "Business" }).check();
  await page.getByRole("button", { name: "Save permissions" }).click();
  await expect(page.getByText("Please give the approver a reason.")).toBeVisible();
  await page.getByLabel("Reason for the approver").fill("Joins the business desk");
  const answered = page.waitForResponse(
    (response) =>
      response.url().endsWith(`/api/administrators/${colleague.id}/permissions`) &&
      response.status() === 202,
  );
  await page.getByRole("button", { name: "Save permissions" }).click();
  const { changeRequest } = (await (await answered).json()) as PendingApprovalAnswer;
  await expect(
    page.getByText(
      `Sent for approval as ${changeRequest.reference}: another administrator must approve it.`,
    ),
  ).toBeVisible();
  // Not granted before the approver agrees.
  await expect(page.getByRole("checkbox", { name: "Business" })).not.toBeChecked();
  await approveAsApprover(changeRequest.id, "Agreed with the business desk's lead");
  await page.reload();
  await expect(page.getByRole("checkbox", { name: "Business" })).toBeChecked();

  // The status button asks first, then disables through PATCH …/{id}/status.
  await page.getByRole("button", { name: `Disable ${colleague.name}` }).click();
  await page.getByRole("tooltip").getByRole("button", { name: "Disable" }).click();
  await expect(page.getByText(`${colleague.name} disabled`)).toBeVisible();
  await expect(page.getByRole("button", { name: `Enable ${colleague.name}` })).toBeVisible();

  // Banning, too, is the status action (the edit form has no status: name and e-mail only).
  await page.getByRole("button", { name: `Ban ${colleague.name}` }).click();
  await page.getByRole("tooltip").getByRole("button", { name: "Ban" }).click();
  await expect(page.getByText(`${colleague.name} banned`)).toBeVisible();
  await expect(page.getByRole("button", { name: `Ban ${colleague.name}` })).toHaveCount(0);
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await expect(page.getByLabel("Email")).toBeVisible();
  await expect(page.getByLabel("Status")).toHaveCount(0);

  const stored = await fetch(`${suite.server.url}/v1/api/administrators/${colleague.id}`, {
    headers: { Authorization: suite.token },
  });
  expect(await stored.json()).toMatchObject({ status: "banned", permissions: [0, 4] });
  const history = await fetch(
    `${suite.server.url}/v1/api/administrators/${colleague.id}/audit?page=1&pageSize=10`,
    { headers: { Authorization: suite.token } },
  );
  const actions = ((await history.json()) as { entries: { action: string }[] }).entries.map(
    (entry) => entry.action,
  );
  expect(actions).toEqual(
    expect.arrayContaining([
      "administrator.disable",
      "administrator.ban",
      "administrator.change_permissions",
    ]),
  );
});
