/**
 * The foundation story (issue 2), played in Debian's Chromium against the real started server:
 * log in as the demo super administrator, create an administrator holding only code 0 (a new
 * administrator waits for a second approver: the demo's second super administrator approves it
 * under Pending approvals), log in as them, see only Dashboard, Pending approvals, User and
 * Setting, switch to Chinese; data survives a restart.
 */
import {
  logIn,
  logOut,
  expectMenu,
  seriousA11yViolations,
  switchLanguage,
  approveChangeRequest,
  sentForApproval,
} from "./support/console";
import { expect, test } from "./support/fixtures";
import { e2ePort } from "./support/ports";
import { demoLogins, startServer, type RunningServer } from "./support/server";

const PORT = e2ePort(0);
let server: RunningServer;
let superAdmin: { email: string; password: string };
/** The second super administrator: the checker of the super administrator's changes. */
let approver: { email: string; password: string };

const deskAdmin = {
  name: "Nur Aisyah",
  email: "nur.aisyah@wallet.example",
  password: "Counter#2026",
};

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  server = await startServer({ port: PORT });
  const login = demoLogins(server.output()).get("super administrator");
  if (!login)
    throw new Error(`the server printed no super administrator login:\n${server.output()}`);
  superAdmin = login;
  approver = demoLogins(server.output()).get("second super administrator") ?? {
    email: "approver@wallet.example",
    password: "Approver#2026",
  };
});

test.afterAll(async () => {
  await server?.stop();
});

test("the server prints the demo logins, super administrator first", () => {
  const printed = [...demoLogins(server.output()).keys()];
  expect(printed[0]).toBe("super administrator");
  expect(printed).toEqual(expect.arrayContaining(["user desk", "finance", "banned administrator"]));
});

test("a wrong password is refused with a clear message in the chosen language, and the form asks for what is missing", async ({
  page,
}) => {
  await page.goto(`${server.url}/login`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Enter your email address")).toBeVisible();
  await expect(page.getByText("Enter your password")).toBeVisible();

  await page.getByLabel("Email").fill(superAdmin.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Incorrect e-mail or password.")).toBeVisible();
  await expect(page).toHaveURL(/\/login/);

  await switchLanguage(page, "中文");
  await page.getByRole("button", { name: "登录" }).click();
  await expect(page.getByText("电子邮件或密码不正确。")).toBeVisible();
});

test("a super administrator creates a User-only administrator, a second approves it, and they then see only Dashboard, Pending approvals, User and Setting, in English and Chinese", async ({
  page,
}) => {
  await logIn(page, server.url, superAdmin.email, superAdmin.password);
  await expectMenu(page, [
    "Dashboard",
    // Every administrator's, right after Dashboard; a count follows when changes wait for them.
    /^Pending approvals/,
    "Statistic",
    "Admin",
    "Audit Log",
    "User",
    "Business",
    "Settlement",
    "Top Up Transaction",
    "Content Management",
    "User Report",
    "Wallet Policy",
    "UCSI Parking",
    "Dormant Account",
    "UCSI ID Management",
    "Announcement",
    "Setting",
    "Global",
  ]);

  await page.getByRole("navigation").getByRole("link", { name: "Admin" }).click();
  await expect(page).toHaveURL(/\/admin-mgmt/);
  await expect(page.getByRole("heading", { name: "Administrators" })).toBeVisible();

  await page.getByRole("button", { name: "New administrator" }).click();
  // The list stays on screen while the create page's chunk loads: wait for the page itself.
  await expect(page.getByRole("heading", { name: "New administrator" })).toBeVisible();
  const form = page.locator("form");
  await form.getByLabel("Name").fill(deskAdmin.name);
  await form.getByLabel("Email").fill(deskAdmin.email);
  await form.getByLabel("Initial password").fill(deskAdmin.password);
  await form
    .getByRole("group", { name: "Permissions" })
    .getByRole("checkbox", { name: "User (0)" })
    .check();
  // A new administrator waits for a second approver, who reads the reason.
  await expect(
    page.getByText("This change waits for a second approver before it is applied."),
  ).toBeVisible();
  await page.getByRole("button", { name: "Create administrator" }).click();
  await expect(page.getByText("Please give the approver a reason.")).toBeVisible();
  await form.getByLabel("Reason for the approver").fill("Joins the user desk at the counter");
  await page.getByRole("button", { name: "Create administrator" }).click();
  const reference = await sentForApproval(page);
  // No account yet: back to the list, which does not hold it.
  await expect(page).toHaveURL(/\/admin-mgmt/);
  await expect(page.getByRole("heading", { name: "Administrators" })).toBeVisible();
  await expect(page.getByText(deskAdmin.email)).toHaveCount(0);
  await logOut(page);

  // The second super administrator approves it under Pending approvals.
  await logIn(page, server.url, approver.email, approver.password);
  await approveChangeRequest(page, reference, "Agreed with the user desk's lead");
  await logOut(page);

  await logIn(page, server.url, deskAdmin.email, deskAdmin.password);
  await expectMenu(page, ["Dashboard", /^Pending approvals/, "User", "Setting"]);

  await switchLanguage(page, "中文");
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await expectMenu(page, ["仪表盘", /^待审批/, "用户", "设置"]);
  await expect(page.getByRole("button", { name: "退出登录" })).toBeVisible();
});

test("an administrator without code 8 cannot open Admin by URL, and the API refuses them too", async ({
  page,
}) => {
  await logIn(page, server.url, deskAdmin.email, deskAdmin.password);
  await page.goto(`${server.url}/admin-mgmt`);
  await expect(page.getByText(/^(Access denied|拒绝访问|无权访问)$/)).toBeVisible();

  const login = await page.request.post(`${server.url}/v1/api/auth/login`, {
    data: { email: deskAdmin.email, password: deskAdmin.password },
  });
  const { token } = (await login.json()) as { token: string };
  const list = await page.request.get(`${server.url}/v1/api/administrators/aggregation`, {
    headers: { Authorization: token },
  });
  expect(list.status()).toBe(403);
  expect(await list.json()).toEqual({
    message: "You have no permission to access GET Administrators",
  });
});

test("while the session is checked the screen shows exactly Loading...", async ({ page }) => {
  await logIn(page, server.url, deskAdmin.email, deskAdmin.password);
  let release: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/v1/api/account/admin", async (route) => {
    await answered;
    await route.continue();
  });
  await page.goto(`${server.url}/setting`);
  await expect(page.locator("#root")).toHaveText("Loading...");
  release();
  await expect(page.getByLabel("Current password")).toBeVisible();
});

test("data survives a restart", async ({ page }) => {
  await server.stop({ keepData: true });
  server = await startServer({ port: PORT, dataDir: server.dataDir });
  await logIn(page, server.url, deskAdmin.email, deskAdmin.password);
  await expect(page.getByRole("navigation")).toBeVisible();
});

for (const language of ["English", "中文"] as const) {
  test(`the login page, the menu and the administrators list have no serious accessibility violations (${language})`, async ({
    page,
  }) => {
    await page.goto(`${server.url}/login`);
    if (language === "中文") await switchLanguage(page, "中文");
    await expect(page.getByRole("button", { name: /^(Sign in|登\s?录)$/ })).toBeVisible();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await logIn(page, server.url, superAdmin.email, superAdmin.password);
    await page.goto(`${server.url}/admin-mgmt`);
    await expect(page.getByRole("table")).toBeVisible();
    await expect(page.getByRole("row").nth(1)).toBeVisible();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
}
