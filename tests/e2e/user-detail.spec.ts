/**
 * The user detail story (issue 5), against the real started server: a user desk administrator
 * (code 0) opens a user, bans them with a remark (no remark and an over-long remark are refused
 * in the dialog), sees the banned tag and the history entry, unbans; sets and clears VIP; a
 * `javascript:` URL is refused and changes nothing, an https URL is saved; resets the password,
 * and the user follows the e-mailed link to set a new one and signs in with it through the API.
 * The ban dialog is also played in Chinese.
 */
import { logIn, switchLanguage } from "./support/console";
import { expect, test } from "./support/fixtures";
import { resetLinkPath } from "./support/outbox";
import { e2ePort } from "./support/ports";
import { demoLogins, startServer, type RunningServer } from "./support/server";

const PORT = e2ePort(40);
let server: RunningServer;
let desk: { email: string; password: string };
let target: { id: number; name: string; email: string };

test.describe.configure({ mode: "serial" });

interface ListedUser {
  id: number;
  name: string;
  email: string | null;
  role: string;
  isBanned: boolean;
  isVip: boolean;
  url: string | null;
}

test.beforeAll(async () => {
  server = await startServer({
    port: PORT,
    env: process.env.DIST_DIR ? { DIST_DIR: process.env.DIST_DIR } : {},
  });
  const login = demoLogins(server.output()).get("user desk");
  if (!login) throw new Error(`the server printed no user desk login:\n${server.output()}`);
  desk = login;

  // A plain student with an e-mail, not banned, not VIP, without a URL: the story's user.
  const auth = await fetch(`${server.url}/v1/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(desk),
  });
  const { token } = (await auth.json()) as { token: string };
  const pagination = encodeURIComponent(JSON.stringify({ page: 1, pageSize: 100 }));
  const list = await fetch(`${server.url}/v1/api/users/aggregation?pagination=${pagination}`, {
    headers: { Authorization: token },
  });
  const { users } = (await list.json()) as { users: ListedUser[] };
  const found = users.find(
    (u) => u.role === "student" && u.email && !u.isBanned && !u.isVip && !u.url,
  );
  if (!found) throw new Error("no plain student in the first 100 demo users");
  target = { id: found.id, name: found.name, email: found.email! };
});

test.afterAll(async () => {
  await server?.stop();
});

const remarkTooLong = "x".repeat(501);

test("ban with a remark, see the tag and the history entry, then unban", async ({ page }) => {
  await logIn(page, server.url, desk.email, desk.password);
  await page.goto(`${server.url}/user-details/${target.id}`);
  await expect(page.getByRole("heading", { name: target.name })).toBeVisible();
  const history = page
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: "History" }) });
  await expect(history).toBeVisible();

  // The kit's action buttons: the accessible name names the user ("Ban <name>").
  await page.getByRole("button", { name: `Ban ${target.name}`, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: `Ban ${target.name}?` });
  await expect(dialog).toBeVisible();

  // No remark: refused in the dialog.
  await dialog.getByRole("button", { name: "Ban" }).click();
  await expect(dialog.getByText("Enter a remark: the user is told why.")).toBeVisible();
  // Over 500 characters: refused.
  await dialog.getByLabel("Remark").fill(remarkTooLong);
  await dialog.getByRole("button", { name: "Ban" }).click();
  await expect(dialog.getByText("The remark can be at most 500 characters.")).toBeVisible();
  await expect(page.getByText("Not banned")).toBeVisible();

  await dialog.getByLabel("Remark").fill("Suspicious top-ups from a shared card");
  await dialog.getByRole("button", { name: "Ban" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`${target.name} is banned`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Unban" })).toBeVisible();
  await expect(page.locator(".ant-tag").filter({ hasText: "Banned" }).first()).toBeVisible();

  const banRow = history
    .getByRole("row")
    .filter({ hasText: "Suspicious top-ups from a shared card" });
  await expect(banRow).toBeVisible();
  await expect(banRow).toContainText("Banned");
  await expect(banRow).toContainText("Ban status: No → Yes");

  await page.getByRole("button", { name: "Unban" }).click();
  await page
    .getByRole("dialog", { name: `Lift the ban on ${target.name}?` })
    .getByRole("button", { name: "Unban" })
    .click();
  await expect(page.getByText(`The ban on ${target.name} is lifted`)).toBeVisible();
  await expect(page.getByRole("button", { name: `Ban ${target.name}`, exact: true })).toBeVisible();
  await expect(history.getByRole("row").filter({ hasText: "Unbanned" })).toBeVisible();
  // Newest first.
  await expect(history.getByRole("row").nth(1)).toContainText("Unbanned");
});

test("set and clear VIP, with confirmation", async ({ page }) => {
  await logIn(page, server.url, desk.email, desk.password);
  await page.goto(`${server.url}/user-details/${target.id}`);
  await page.getByRole("button", { name: `Make VIP: ${target.name}` }).click();
  await page
    .getByRole("dialog", { name: `Make ${target.name} a VIP?` })
    .getByRole("button", { name: "Make VIP" })
    .click();
  await expect(page.getByText(`${target.name} is now a VIP`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Remove VIP" })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "Made VIP" })).toBeVisible();

  await page.getByRole("button", { name: "Remove VIP" }).click();
  await page
    .getByRole("dialog", { name: `Remove VIP status from ${target.name}?` })
    .getByRole("button", { name: "Remove VIP" })
    .click();
  await expect(page.getByText(`${target.name} is no longer a VIP`)).toBeVisible();
  await expect(page.getByRole("button", { name: `Make VIP: ${target.name}` })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "VIP removed" })).toBeVisible();
});

test("a javascript: URL is refused and changes nothing; an https URL is saved", async ({
  page,
}) => {
  await logIn(page, server.url, desk.email, desk.password);
  const urlCalls: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith(`/api/users/${target.id}/url`)) urlCalls.push(request.method());
  });
  await page.goto(`${server.url}/user-details/${target.id}`);
  // The kit's form dialog: the button opens it, its own "Save URL" sends.
  await page.getByRole("button", { name: `Save URL of ${target.name}` }).click();
  const dialog = page.getByRole("dialog", { name: `The URL of ${target.name}` });
  const field = dialog.getByRole("textbox", { name: "URL" });
  await field.fill("javascript:alert(1)");
  await dialog.getByRole("button", { name: "Save URL" }).click();
  await expect(
    dialog.getByText("Enter a web address starting with http:// or https://."),
  ).toBeVisible();
  expect(urlCalls).toEqual([]);
  await expect(page.getByRole("row").filter({ hasText: "URL changed" })).toHaveCount(0);

  await field.fill("https://shop.example/campus");
  await dialog.getByRole("button", { name: "Save URL" }).click();
  await expect(page.getByText("The URL is saved")).toBeVisible();
  expect(urlCalls).toEqual(["PATCH"]);
  await expect(page.getByRole("link", { name: "https://shop.example/campus" })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "URL changed" })).toContainText(
    "https://shop.example/campus",
  );
});

test("reset password tells when the e-mailed one-time link expires", async ({ page }) => {
  await logIn(page, server.url, desk.email, desk.password);
  await page.goto(`${server.url}/user-details/${target.id}`);
  await page.getByRole("button", { name: `Reset password for ${target.name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Reset the password of ${target.name}?` });
  await expect(dialog).toContainText("one-time link");
  await dialog.getByRole("button", { name: "Reset password" }).click();
  await expect(
    page.getByText(
      new RegExp(
        `^A one-time reset link was e-mailed to ${target.email.replace(/\./g, "\\.")}\\. It works until .+\\.$`,
      ),
    ),
  ).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "Password reset link sent" })).toBeVisible();
});

test("the user follows the e-mailed link, sets a password, and signs in with it", async ({
  browser,
}) => {
  const path = resetLinkPath(server.dataDir, target.email);
  // The user's own browser: no console session.
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.url}${path}`);
  await expect(page.getByRole("heading", { name: "Set your UCSI Wallet password" })).toBeVisible();
  await expect(page.getByText(`Choose a new password for ${target.name}`)).toBeVisible();

  const password = page.getByLabel("New password", { exact: true });
  const confirm = page.getByLabel("Repeat the new password");
  await password.fill("weak");
  await confirm.fill("weak");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByText("The password does not meet the rules below")).toBeVisible();
  await password.fill("Campus#Wallet26");
  await confirm.fill("Campus#Wallet27");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByText("The two passwords are not the same")).toBeVisible();
  await confirm.fill("Campus#Wallet26");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByText("Your password is set")).toBeVisible();

  // The wallet app signs in with it.
  const details = await fetch(`${server.url}/v1/api/app/password-reset/check`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: new URLSearchParams(path.split("?")[1]).get("token") }),
  });
  expect(details.status).toBe(410);
  const account = /account number (\S+) and/.exec(
    (await page.getByText("Sign in to the UCSI Wallet app").textContent()) ?? "",
  )?.[1];
  const signIn = await fetch(`${server.url}/v1/api/app/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ accountNumber: account, password: "Campus#Wallet26" }),
  });
  expect(signIn.status).toBe(200);
  expect(((await signIn.json()) as { profile: { name: string } }).profile.name).toBe(target.name);

  // The link is spent: opened again, in Chinese, it says so.
  await page.evaluate(() => localStorage.setItem("language", "cn-ZH"));
  await page.goto(`${server.url}${path}`);
  await expect(page.getByText("此链接无法使用")).toBeVisible();
  await expect(page.getByText(/此密码重置链接已被使用/)).toBeVisible();
  await context.close();
});

test("the ban dialog in Chinese refuses an empty remark", async ({ page }) => {
  await logIn(page, server.url, desk.email, desk.password);
  await switchLanguage(page, "中文");
  await page.goto(`${server.url}/user-details/${target.id}`);
  await page.getByRole("button", { name: `封禁 ${target.name}`, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: `封禁 ${target.name}？` });
  await dialog.getByRole("button", { name: "封禁" }).click();
  await expect(dialog.getByText("请输入备注：用户会被告知原因。")).toBeVisible();
  await dialog.getByRole("button", { name: "取消" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("heading", { name: "历史记录" })).toBeVisible();
  await switchLanguage(page, "English");
});

test("the User list exports the filtered list as CSV", async ({ page }) => {
  await logIn(page, server.url, desk.email, desk.password);
  await page.goto(`${server.url}/user-mgmt`);
  await page.getByRole("button", { name: "Export CSV" }).click();
  const dialog = page.getByRole("dialog", { name: "Export users" });
  await expect(dialog).toContainText("at most 10,000 rows");
  const download = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Export", exact: true }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^users-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = (await file.createReadStream()).toArray();
  const csv = Buffer.concat((await text) as Buffer[]).toString("utf8");
  expect(csv.startsWith("\uFEFFAccount number,Name,Email,Phone,Role")).toBe(true);
  await expect(dialog.getByRole("status")).toContainText(/^Exported [\d,]+ users$/);
  const rows = csv.trim().split("\r\n").length - 1;
  expect(rows).toBeGreaterThan(100);
});

test("a user's page shows the wallet's statement: filtered, exported and printed", async ({
  page,
}) => {
  // A demo wallet with payments and top-ups: the one with the most rows among the first users.
  const auth = await fetch(`${server.url}/v1/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(desk),
  });
  const { token } = (await auth.json()) as { token: string };
  const statementOf = async (id: number) => {
    const response = await fetch(`${server.url}/v1/api/users/${id}/statement`, {
      headers: { Authorization: token },
    });
    return (await response.json()) as {
      totalCount: number;
      statement: Array<{ reference: string; type: string; balanceAfterSen: number }>;
    };
  };
  let holder: { id: number; rows: Awaited<ReturnType<typeof statementOf>> } | undefined;
  for (let id = 1; id <= 40 && !holder; id += 1) {
    const rows = await statementOf(id);
    const kinds = new Set(rows.statement?.map((row) => row.type) ?? []);
    if (kinds.has("payment") && kinds.has("top_up")) holder = { id, rows };
  }
  if (!holder) throw new Error("no demo wallet with payments and top-ups among users 1–40");
  const newest = holder.rows.statement[0]!;

  await logIn(page, server.url, desk.email, desk.password);
  await page.goto(`${server.url}/user-details/${holder.id}`);
  const statement = page
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: "Statement" }) });
  await expect(statement.getByRole("row").nth(1)).toContainText(newest.reference);
  const balance = `RM ${(newest.balanceAfterSen / 100).toFixed(2)}`;
  await expect(statement.getByRole("row").nth(1)).toContainText(balance);
  await expect(statement).toContainText(`${holder.rows.totalCount} rows`);

  // Only payments: every row is one.
  await statement.getByRole("combobox", { name: "Kind" }).click();
  await page.locator(".ant-select-item-option", { hasText: /^Payment$/ }).click();
  await expect(statement.getByRole("row").nth(1)).toContainText("Payment");
  await expect(statement.getByRole("row").filter({ hasText: "Top-up" })).toHaveCount(0);

  // The CSV holds the filtered rows.
  await statement.getByRole("button", { name: "Export CSV" }).click();
  const exportDialog = page.getByRole("dialog", { name: "Export the statement to CSV" });
  const csvDownload = page.waitForEvent("download");
  await exportDialog.getByRole("button", { name: "Export", exact: true }).click();
  const csvFile = await csvDownload;
  expect(csvFile.suggestedFilename()).toMatch(
    new RegExp(`^users-${holder.id}-statement-\\d{4}-\\d{2}-\\d{2}\\.csv$`),
  );
  const csv = Buffer.concat((await (await csvFile.createReadStream()).toArray()) as Buffer[])
    .toString("utf8")
    .trim()
    .split("\r\n");
  expect(csv[0]!.replace(/^\uFEFF/, "")).toBe(
    "Time,Reference,Kind,Channel,Business,Amount (RM),Balance after (RM),Status,Remark",
  );
  expect(csv.slice(1).every((line) => line.includes(",Payment,"))).toBe(true);

  // This month's statement as a PDF.
  await expect(exportDialog.getByRole("status")).toContainText("exported");
  await exportDialog.getByRole("button", { name: "Cancel" }).click();
  await expect(exportDialog).toBeHidden();
  await statement.getByRole("button", { name: "Print statement" }).click();
  const printDialog = page.getByRole("dialog", { name: "Print a statement" });
  const pdfDownload = page.waitForEvent("download");
  await printDialog.getByRole("button", { name: "Download PDF" }).click();
  const pdf = await pdfDownload;
  expect(pdf.suggestedFilename()).toMatch(
    /^statement-.+-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.pdf$/,
  );
  const bytes = Buffer.concat((await (await pdf.createReadStream()).toArray()) as Buffer[]);
  expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
  await expect(printDialog).toBeHidden();
});
