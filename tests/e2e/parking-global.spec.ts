/**
 * UCSI Parking, Global and Setting (issue 14) against the real started server, built without a
 * maps key: the parking page lists the lots and says the map is not configured, with no error;
 * ending a session by hand charges its fee to the driver's wallet as a payment row; a support
 * e-mail set in Global is the contact the banned administrator's dialog shows at login; a dark
 * theme chosen in Setting is still in force after a reload.
 */
import { formatRinggit } from "../../src/shared/money";
import { logIn, logOut, approveChangeRequest, sentForApproval } from "./support/console";
import { expect, test } from "./support/fixtures";
import { e2ePort } from "./support/ports";
import { startServer, type RunningServer } from "./support/server";

const PORT = e2ePort(95);
let server: RunningServer;
/** The demo administrators (fixed passwords outside production). */
const superAdmin = { email: "superadmin@wallet.example", password: "SuperAdmin#2026" };
const banned = { email: "banned@wallet.example", password: "Banned#2026" };
/** The second super administrator: the checker of the super administrator's changes. */
const approver = { email: "approver@wallet.example", password: "Approver#2026" };

test.describe.configure({ mode: "serial" });

interface Session {
  id: number;
  plate: string;
  userId: number;
  accountNumber: string;
  feeSen: number | null;
  paymentReference: string | null;
}

async function api<T>(path: string): Promise<T> {
  const session = await fetch(`${server.url}/v1/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(superAdmin),
  });
  const { token } = (await session.json()) as { token: string };
  const answer = await fetch(`${server.url}/v1${path}`, { headers: { Authorization: token } });
  if (!answer.ok) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as T;
}

test.beforeAll(async () => {
  // From a copy of the run's seeded store (support/global-setup.ts): a start of ~2 s.
  server = await startServer({
    port: PORT,
    env: process.env.DIST_DIR ? { DIST_DIR: process.env.DIST_DIR } : {},
  });
});

test.afterAll(async () => {
  await server?.stop();
});

test("the parking page without a maps key lists the lots and says the map is not configured", async ({
  page,
}) => {
  const failures: string[] = [];
  page.on("pageerror", (error) => failures.push(error.message));
  page.on("request", (request) => {
    if (!request.url().startsWith(server.url)) failures.push(`left the site: ${request.url()}`);
  });
  await logIn(page, server.url, superAdmin.email, superAdmin.password);
  await page.goto(`${server.url}/parking`);
  await expect(page.getByRole("heading", { name: "UCSI Parking" })).toBeVisible();
  await expect(
    page.getByText("The map is not configured: the lots are listed below."),
  ).toBeVisible();
  const row = page.locator(".ant-table-row").filter({ hasText: "Visitor lot" });
  await expect(row).toContainText("VISIT");
  await expect(row).toContainText("RM 2.00");
  await expect(page.locator(".ant-table-row")).toHaveCount(8);
  await expect(page.locator(".ant-alert-error")).toHaveCount(0);
  expect(failures).toEqual([]);
});

test("ending a session by hand charges its fee to the driver's wallet as a payment", async ({
  page,
}) => {
  const query = new URLSearchParams({
    filter: JSON.stringify({ status: "active" }),
    pagination: JSON.stringify({ page: 1, pageSize: 1 }),
  });
  const [active] = (
    await api<{ parkingSessions: Session[] }>(`/api/parking-sessions/aggregation?${query}`)
  ).parkingSessions;
  if (!active) throw new Error("no demo car is parked");
  const walletBefore = (
    await api<{ wallet: { balanceSen: number } }>(`/api/users/${active.userId}`)
  ).wallet.balanceSen;

  await logIn(page, server.url, superAdmin.email, superAdmin.password);
  await page.goto(`${server.url}/parking-session/${active.id}`);
  await page.getByRole("button", { name: `End session ${active.plate}` }).click();
  const dialog = page.getByRole("dialog", { name: `End session ${active.plate}?` });
  await expect(dialog).toContainText("charged to the driver's wallet");
  await dialog.getByRole("textbox", { name: "Remark" }).fill("Barrier did not open");
  await dialog.getByRole("button", { name: "End" }).click();
  await expect(dialog).toBeHidden();
  const details = page.locator(".ant-descriptions");
  await expect(details.getByText("Completed", { exact: true })).toBeVisible();
  await expect(details.getByText(/^PK\w+$/)).toBeVisible();

  const ended = await api<Session>(`/api/parking-sessions/${active.id}`);
  expect(ended.feeSen).toBeGreaterThan(0);
  const fee = formatRinggit(ended.feeSen!);
  await expect(details).toContainText(fee);
  // The fee is the wallet's newest ledger row: a payment, the balance down by exactly the fee.
  const wallet = await api<{ wallet: { balanceSen: number } }>(`/api/users/${active.userId}`);
  expect(wallet.wallet.balanceSen).toBe(walletBefore - ended.feeSen!);
  await page.goto(`${server.url}/user-details/${active.userId}`);
  await expect(page.getByText(formatRinggit(walletBefore - ended.feeSen!)).first()).toBeVisible();
});

test("a support e-mail set in Global is the banned administrator's contact at login", async ({
  page,
}) => {
  await logIn(page, server.url, superAdmin.email, superAdmin.password);
  await page.getByRole("navigation").getByRole("link", { name: "Global" }).click();
  const email = page.getByLabel("Support e-mail");
  await expect(email).not.toHaveValue("");
  const old = await email.inputValue();

  // A bad address is refused under the input; nothing is sent.
  await email.fill("help desk");
  await page.getByRole("button", { name: "Review changes" }).click();
  await expect(page.getByText("Enter a valid e-mail address, or leave it empty")).toBeVisible();

  await email.fill("parking.help@ucsi.example");
  await page.getByRole("button", { name: "Review changes" }).click();
  const review = page.getByRole("dialog", { name: "Send these changes for approval?" });
  const changed = review.getByRole("row").filter({ hasText: "Support e-mail" });
  await expect(changed).toContainText(old);
  await expect(changed).toContainText("parking.help@ucsi.example");
  // Every change of the settings waits for a second holder of Global, who reads the reason.
  await expect(
    review.getByText("This change waits for a second approver before it is applied."),
  ).toBeVisible();
  await review.getByLabel("Reason for the approver").fill("The parking desk answers bans now");
  await review.getByRole("button", { name: "Send for approval" }).click();
  const reference = await sentForApproval(page);
  await logOut(page);

  // The second super administrator sees it old → new in Global's words, and approves it.
  await logIn(page, server.url, approver.email, approver.password);
  await approveChangeRequest(page, reference, "Confirmed with the desk", async (dialog, row) => {
    await expect(row).toContainText("Global");
    await expect(row).toContainText("Change settings");
    await expect(dialog).toContainText("Support e-mail");
    await expect(dialog).toContainText("parking.help@ucsi.example");
  });
  await logOut(page);

  await page.getByLabel("Email").fill(banned.email);
  await page.getByLabel("Password").fill(banned.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("dialog", { name: "Account banned from login" })).toContainText(
    "This account is prevented from login. Please contact admin at parking.help@ucsi.example.",
  );
});

test("a dark theme chosen in Setting is still in force after a reload", async ({ page }) => {
  const background = () =>
    page
      .locator(".ant-layout")
      .first()
      .evaluate((node) => getComputedStyle(node).backgroundColor);
  await logIn(page, server.url, superAdmin.email, superAdmin.password);
  await page.goto(`${server.url}/setting`);
  const light = await background();
  await page.getByText("Dark", { exact: true }).click();
  await expect(page.getByText("Theme saved")).toBeVisible();
  await expect.poll(background).not.toBe(light);
  const dark = await background();
  await page.reload();
  await expect(page.getByRole("radio", { name: "Dark" })).toBeChecked();
  await expect.poll(background).toBe(dark);
  // Back to light for the stories after this one.
  await page.getByText("Light", { exact: true }).click();
  await expect.poll(background).toBe(light);
});
