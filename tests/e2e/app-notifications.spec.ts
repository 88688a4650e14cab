/**
 * App notifications (issue 13), against the real started server and its job queue: a member of
 * staff schedules a notification to merchants a few seconds ahead, watches its page go from
 * Scheduled to Sent with the number of active merchants as its recipients, listed below; an
 * empty title and a send time already past are refused in their words, and nothing is saved.
 */
import dayjs from "dayjs";

import { logIn } from "./support/console";
import { expect, test } from "./support/fixtures";
import { e2ePort } from "./support/ports";
import { signInSuperAdmin, startServer, type RunningServer } from "./support/server";

const PORT = e2ePort(135);
let server: RunningServer;
let superAdmin: { email: string; password: string };
let token = "";

test.beforeAll(async () => {
  // From a copy of the run's seeded store (support/global-setup.ts): a start of ~2 s.
  server = await startServer({
    port: PORT,
    env: process.env.DIST_DIR ? { DIST_DIR: process.env.DIST_DIR } : {},
  });
  ({ superAdmin, token } = await signInSuperAdmin(server));
});

test.afterAll(async () => {
  await server?.stop();
});

async function api<T>(path: string): Promise<T> {
  const answer = await fetch(`${server.url}/v1${path}`, { headers: { Authorization: token } });
  if (!answer.ok) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as T;
}

const listQuery = (params: Record<string, unknown>) =>
  new URLSearchParams(
    Object.entries(params).map(([key, value]): [string, string] => [key, JSON.stringify(value)]),
  ).toString();

/** How many merchants a notification reaches: approved, not banned. */
async function activeMerchants() {
  const { totalCount } = await api<{ totalCount: number }>(
    `/api/users/aggregation?${listQuery({
      filter: { role: "merchant", approvalStatus: "approved", isBanned: false },
    })}`,
  );
  return totalCount;
}

const notificationCount = async () =>
  (await api<{ totalCount: number }>("/api/app-notifications/aggregation")).totalCount;

test("a notification scheduled a few seconds ahead is sent to every active merchant, once", async ({
  page,
}) => {
  const merchants = await activeMerchants();
  expect(merchants).toBeGreaterThan(0);
  const before = await notificationCount();

  await logIn(page, server.url, superAdmin.email, superAdmin.password);
  await page.getByRole("navigation").getByText("Announcement", { exact: true }).click();
  await page.getByRole("navigation").getByRole("link", { name: "App Notification" }).click();
  await expect(page.getByRole("heading", { name: "App Notification" })).toBeVisible();
  await page.getByRole("button", { name: "New notification" }).click();
  await expect(page.getByRole("heading", { name: "New app notification" })).toBeVisible();

  const title = `Stall fees due ${Date.now()}`;
  await page.getByLabel("Title (Chinese)").fill("档位费即将到期");
  await page
    .getByLabel("Message (English)")
    .fill("Please settle this month's stall fee by Friday.");
  await page.getByLabel("Message (Chinese)").fill("请于周五前缴清本月档位费。");
  await page.getByLabel("Audience").click();
  await page.getByTitle("Merchants").click();
  await page.keyboard.press("Escape");

  // No title: refused under its input, before anything is sent. Without a time it sends now.
  await page.getByRole("button", { name: "Send now" }).click();
  await expect(page.getByText("Title (English) is required.")).toBeVisible();
  await page.getByLabel("Title (English)").fill(title);

  // A time already past: the server refuses it, in the staff member's words.
  const sendAt = page.getByLabel("Send at");
  await sendAt.fill(dayjs().subtract(10, "minute").format("YYYY-MM-DD HH:mm:ss"));
  await sendAt.press("Enter");
  await page.getByRole("button", { name: "Schedule" }).click();
  // Confirmed with whom it reaches: the active merchants, counted now.
  const review = page.getByRole("dialog", { name: "Send this notification?" });
  await expect(review.getByRole("status")).toHaveText(
    `${merchants.toLocaleString("en")} users would receive it today.`,
  );
  await review.getByRole("button", { name: "Schedule" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "not saved" })).toContainText(
    "The send time has passed.",
  );
  expect(await notificationCount()).toBe(before);

  // A few seconds ahead: scheduled, then sent by the queue while the page is open.
  await sendAt.fill(dayjs().add(8, "second").format("YYYY-MM-DD HH:mm:ss"));
  await sendAt.press("Enter");
  await page.getByRole("button", { name: "Schedule" }).click();
  await review.getByRole("button", { name: "Schedule" }).click();
  await expect(page).toHaveURL(/\/app-notification\/\d+$/);
  await expect(page.getByText(`Notification "${title}" is scheduled.`)).toBeVisible();
  const details = page.locator(".ant-descriptions");
  await expect(details.getByText("Scheduled", { exact: true })).toBeVisible();
  await expect(details.getByText("Sent", { exact: true })).toBeVisible({ timeout: 40_000 });
  await expect(details.getByText(merchants.toLocaleString("en"), { exact: true })).toBeVisible();
  await expect(page.getByText(`${merchants.toLocaleString("en")} recipients`)).toBeVisible();
  await expect(page.getByRole("button", { name: /^Cancel sending/ })).toHaveCount(0);
  expect(await notificationCount()).toBe(before + 1);
});
