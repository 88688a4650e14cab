/**
 * Live updates (issue 35 item 2; docs/live-updates.md), against the real started server, two
 * browsers: the super administrator has the users list open; the user desk opens a user's page
 * and changes the user (through the API with their own session). The first's list shows the
 * change in place (the row is on its page); a change of a user it does not show makes it say
 * "1 new or changed: refresh"; on the user's page the first sees the user desk there ("Also open
 * by"), and, when the user desk changes the user again, the change arrives with "Someone else
 * changed this record."
 */
import type { Browser, Page } from "@playwright/test";

import { logIn } from "./support/console";
import { type DemoLogin, expect, test, useSuperAdminServer } from "./support/fixtures";
import type { RunningServer } from "./support/server";

const suite = useSuperAdminServer(250);
let server: RunningServer;
let desk: DemoLogin;
let superAdmin: DemoLogin;

test.describe.configure({ mode: "serial" });

test.beforeAll(() => {
  ({ server, superAdmin } = suite);
  desk = suite.login("user desk");
});

async function tokenOf(login: DemoLogin) {
  const answer = await fetch(`${server.url}/v1/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(login),
  });
  return ((await answer.json()) as { token: string }).token;
}

/** Makes user `id` a VIP or not, whichever it is not, as `token`'s holder. */
async function toggleVip(token: string, id: string) {
  for (const isVip of [true, false]) {
    const answer = await fetch(`${server.url}/v1/api/users/${id}/vip`, {
      method: "PATCH",
      headers: { authorization: token, "content-type": "application/json" },
      body: JSON.stringify({ isVip }),
    });
    if (answer.ok) return;
    if (answer.status !== 409) throw new Error(`vip: ${answer.status} ${await answer.text()}`);
  }
  throw new Error("the user is neither a VIP nor not one");
}

/** The id of a user the list's page does not show (`shown`). */
async function userNotShown(token: string, shown: readonly string[]) {
  const pagination = encodeURIComponent(JSON.stringify({ page: 1, pageSize: 100 }));
  const answer = await fetch(`${server.url}/v1/api/users/aggregation?pagination=${pagination}`, {
    headers: { authorization: token },
  });
  const { users } = (await answer.json()) as { users: Array<{ id: number }> };
  return String(users.find((user) => !shown.includes(String(user.id)))!.id);
}

async function secondBrowser(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

test("someone else's change reaches the list and the record's page, with their presence", async ({
  page,
  browser,
}) => {
  await logIn(page, server.url, superAdmin.email, superAdmin.password);
  await page.goto(`${server.url}/user-mgmt`);
  await expect(page.getByRole("heading", { name: "Users", exact: true })).toBeVisible();
  const firstUser = page.locator("tbody tr a[href*='/user-details/']").first();
  await expect(firstUser).toBeVisible();
  const href = (await firstUser.getAttribute("href"))!;
  const id = /\/user-details\/([^/?#]+)/.exec(href)![1]!;

  // The user desk opens the user's page, then changes the user.
  const other = await secondBrowser(browser);
  await logIn(other, server.url, desk.email, desk.password);
  await other.goto(`${server.url}/user-details/${id}`);
  await expect(other.getByRole("heading", { level: 1 })).toBeVisible();
  const deskToken = await tokenOf(desk);
  const row = page
    .locator("tbody tr")
    .filter({ has: page.locator(`a[href$='/user-details/${id}']`) });
  const vip = row.getByText("VIP", { exact: true });
  const wasVip = (await vip.count()) > 0;
  await toggleVip(deskToken, id);

  // A change of a row the list shows: updated in place, without a notice.
  await expect(vip).toHaveCount(wasVip ? 0 : 1, { timeout: 10_000 });
  const notices = page.getByRole("status").filter({ hasText: "new or changed" });
  await expect(notices).toHaveCount(0);

  // A user the page does not show: the list says so and keeps its place; the refresh reads it.
  const shown = await page
    .locator("tbody tr a[href*='/user-details/']")
    .evaluateAll((links) => links.map((link) => link.getAttribute("href")!.split("/").pop()!));
  await toggleVip(deskToken, await userNotShown(deskToken, shown));
  const notice = page.getByRole("status").filter({ hasText: "1 new or changed: refresh" });
  await expect(notice).toBeVisible({ timeout: 10_000 });
  await page.getByRole("button", { name: "Refresh" }).click();
  await expect(notice).toBeHidden();
  await expect(page).toHaveURL(/\/user-mgmt/);

  // On the user's page: who else has it open, and the next change arriving.
  await page.goto(`${server.url}/user-details/${id}`);
  await expect(page.getByText(/Also open by: .+/)).toBeVisible({ timeout: 10_000 });
  await toggleVip(deskToken, id);
  await expect(page.getByText("Someone else changed this record.")).toBeVisible({
    timeout: 10_000,
  });

  // At 480 px the notice and the presence still fit.
  await page.setViewportSize({ width: 480, height: 900 });
  await expect(page.getByText(/Also open by: .+/)).toBeVisible();
  await other.context().close();
});
