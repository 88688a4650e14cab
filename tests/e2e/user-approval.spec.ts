/**
 * The approval story (issue 5), against the real started server: a user desk administrator
 * (code 0) opens User > Approval, approves a pending user with a remark; the user leaves the
 * list, their detail shows them approved and the history panel the approval with its remark.
 * Rejecting without a remark is refused in the dialog, in English and in Chinese, and changes
 * nothing; two selected users are approved at once.
 */
import type { Locator, Page } from "@playwright/test";
import { logIn, seriousA11yViolations, switchLanguage } from "./support/console";
import { expect, test } from "./support/fixtures";
import { e2ePort } from "./support/ports";
import { demoLogins, startServer, type RunningServer } from "./support/server";

const PORT = e2ePort(30);
let server: RunningServer;
let desk: { email: string; password: string };

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  server = await startServer({
    port: PORT,
    env: process.env.DIST_DIR ? { DIST_DIR: process.env.DIST_DIR } : {},
  });
  const login = demoLogins(server.output()).get("user desk");
  if (!login) throw new Error(`the server printed no user desk login:\n${server.output()}`);
  desk = login;
});

test.afterAll(async () => {
  await server?.stop();
});

interface ListedUser {
  id: number;
  name: string;
}

const rows = (page: Page) => page.locator(".ant-table-tbody tr.ant-table-row");
const rowOf = (page: Page, user: ListedUser) =>
  rows(page).filter({ has: page.locator(`a[href="/user-details/${user.id}"]`) });

/** The pending user shown in the list's n-th row. */
async function listedUser(row: Locator): Promise<ListedUser> {
  const link = row.getByRole("link");
  const href = (await link.getAttribute("href")) ?? "";
  const id = Number(/\/user-details\/(\d+)$/.exec(href)?.[1]);
  expect(id, `a user id in ${href}`).toBeGreaterThan(0);
  return { id, name: (await link.textContent()) ?? "" };
}

async function openApprovalList(page: Page) {
  await page.goto(`${server.url}/user-approval`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^(User approval|用户审批)$/);
  await expect(rows(page)).toHaveCount(10);
}

/** A user as the API sees them, asked with the page's own session (the `jwt` cookie). */
async function apiUser(page: Page, id: number): Promise<{ approvalStatus: string }> {
  const token = (await page.context().cookies()).find((c) => c.name === "jwt")?.value;
  expect(token, "the session cookie").toBeTruthy();
  const response = await page.request.get(`${server.url}/v1/api/users/${id}`, {
    headers: { Authorization: token ?? "" },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as { approvalStatus: string };
}

test("a user desk administrator approves a pending user with a remark: the user leaves the list, the detail shows them approved and the history entry", async ({
  page,
}) => {
  await logIn(page, server.url, desk.email, desk.password);
  const navigation = page.getByRole("navigation");
  await navigation.getByRole("menuitem", { name: "User" }).click();
  await navigation.getByRole("link", { name: "Approval", exact: true }).click();
  await expect(page).toHaveURL(/\/user-approval$/);
  await expect(page.getByRole("heading", { name: "User approval", level: 1 })).toBeVisible();
  await expect(rows(page)).toHaveCount(10);
  await expect(page.getByText(/^\d+ pending users$/)).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);

  const user = await listedUser(rows(page).first());
  const remark = `Identity documents checked for ${user.name}`;
  await rowOf(page, user)
    .getByRole("button", { name: `Approve ${user.name}` })
    .click();
  const dialog = page.getByRole("dialog", { name: `Approve ${user.name}` });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Remark").fill(remark);
  await expect(dialog.getByText(`${remark.length} / 500`)).toBeVisible();
  await dialog.getByRole("button", { name: "Approve", exact: true }).click();

  await expect(page.getByText(`${user.name} was approved`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(rowOf(page, user)).toHaveCount(0);
  await expect(rows(page)).toHaveCount(10);

  await page.goto(`${server.url}/user-details/${user.id}`);
  await expect(page.getByRole("heading", { name: user.name, level: 1 })).toBeVisible();
  await expect(
    page.locator(".ant-descriptions-item").filter({ hasText: "Approval status" }),
  ).toContainText("Approved");
  const history = page
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: "History" }) });
  const entry = history.getByRole("row").filter({ hasText: remark });
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText("Approved");
  await expect(entry).toContainText("User Desk");
});

test("rejecting without a remark is refused in the dialog, in English and Chinese, and changes nothing", async ({
  page,
}) => {
  const decisions: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/approval-action")) decisions.push(request.url());
  });
  await logIn(page, server.url, desk.email, desk.password);
  await openApprovalList(page);
  const user = await listedUser(rows(page).first());

  await rowOf(page, user)
    .getByRole("button", { name: `Reject ${user.name}` })
    .click();
  let dialog = page.getByRole("dialog", { name: `Reject ${user.name}` });
  await dialog.getByLabel("Remark").fill("   ");
  await dialog.getByRole("button", { name: "Reject", exact: true }).click();
  await expect(dialog.getByText("Enter a remark")).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();

  await switchLanguage(page, "中文");
  await expect(page.getByRole("heading", { name: "用户审批", level: 1 })).toBeVisible();
  await rowOf(page, user)
    .getByRole("button", { name: `拒绝 ${user.name}` })
    .click();
  dialog = page.getByRole("dialog", { name: `拒绝 ${user.name}` });
  await dialog.getByRole("button", { name: /^拒\s?绝$/ }).click();
  await expect(dialog.getByText("请输入备注")).toBeVisible();
  await dialog.getByLabel("备注").fill("x".repeat(501));
  await expect(dialog.getByText("备注最多 500 个字符")).toBeVisible();
  await dialog.getByRole("button", { name: /^取\s?消$/ }).click();
  await expect(dialog).toBeHidden();

  expect(decisions).toEqual([]);
  await expect(rowOf(page, user)).toHaveCount(1);
  expect((await apiUser(page, user.id)).approvalStatus).toBe("pending");
});

test("two selected users are approved at once and both leave the list", async ({ page }) => {
  await logIn(page, server.url, desk.email, desk.password);
  await openApprovalList(page);
  const first = await listedUser(rows(page).nth(0));
  const second = await listedUser(rows(page).nth(1));

  await rowOf(page, first).getByRole("checkbox").check();
  await rowOf(page, second).getByRole("checkbox").check();
  await expect(page.getByText("2 users selected")).toBeVisible();
  await page.getByRole("button", { name: "Approve selected" }).click();
  const dialog = page.getByRole("dialog", { name: "Approve 2 users" });
  await expect(dialog).toContainText(`${first.name}, ${second.name}`);
  await dialog.getByLabel("Remark").fill("Batch of verified students");
  await dialog.getByRole("button", { name: "Approve", exact: true }).click();

  await expect(page.getByText("2 users were approved")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(rowOf(page, first)).toHaveCount(0);
  await expect(rowOf(page, second)).toHaveCount(0);
  await expect(page.getByText("0 users selected")).toBeVisible();
  for (const user of [first, second]) {
    expect((await apiUser(page, user.id)).approvalStatus).toBe("approved");
  }
});
