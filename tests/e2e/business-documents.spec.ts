/**
 * Business documents (issue 37, item 4), against the real started server: staff open a pending
 * business from the approval queue, see its registration certificate and bank letter beside the
 * decision (the letter's thumbnail, a download), and approve it from the business's own page,
 * the dialog showing the documents. At 480 px a business missing its bank letter says so; a PNG
 * named .pdf is refused with a translated answer and nothing changes; the right file is added.
 */
import { logIn, switchLanguage } from "./support/console";
import { expect, test, useSuperAdminServer } from "./support/fixtures";

const suite = useSuperAdminServer(190);

test.describe.configure({ mode: "serial" });

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC",
  "base64",
);

test("staff open a pending business, see its documents and approve it from its page", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await logIn(page, suite.server.url, suite.superAdmin.email, suite.superAdmin.password);
  await page.goto(`${suite.server.url}/business-approval`);
  // The queue's own decision lists the documents too.
  await page.getByRole("button", { name: "Approve Vegetarian Delights" }).click();
  const queued = page.getByRole("dialog", { name: "Approve Vegetarian Delights?" });
  await expect(queued.getByText("vegetarian-delights-registration.pdf")).toBeVisible();
  await queued.getByRole("button", { name: "Cancel" }).click();
  await expect(queued).toBeHidden();
  await page.getByRole("link", { name: "Bubble Tea Stall" }).first().click();
  await expect(page).toHaveURL(/\/business-details\/\d+$/);
  await expect(page.getByRole("heading", { name: "Bubble Tea Stall", level: 1 })).toBeVisible();

  const documents = page
    .getByRole("region", { name: "Documents" })
    .or(page.locator("section").filter({ has: page.getByRole("heading", { name: "Documents" }) }));
  await expect(documents.getByText("Registration certificate", { exact: true })).toBeVisible();
  await expect(documents.getByText("Bank letter", { exact: true })).toBeVisible();
  await expect(documents.getByText("bubble-tea-stall-registration.pdf")).toBeVisible();
  await expect(documents.getByRole("img", { name: /^Preview of bubble-tea-stall-/ })).toBeVisible();
  await expect(documents.getByText(/^Missing before approval/)).toHaveCount(0);

  const download = page.waitForEvent("download");
  await documents
    .getByRole("button", { name: "Download bubble-tea-stall-registration.pdf" })
    .click();
  expect((await download).suggestedFilename()).toBe("bubble-tea-stall-registration.pdf");

  await page.getByRole("button", { name: "Approve Bubble Tea Stall" }).click();
  const dialog = page.getByRole("dialog", { name: "Approve Bubble Tea Stall?" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText("bubble-tea-stall-registration.pdf")).toBeVisible();
  await dialog.getByLabel("Remark").fill("Registration certificate and bank letter checked");
  await dialog.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(page.getByText("Bubble Tea Stall was approved.")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.locator(".ant-descriptions-row").filter({ hasText: "Status" })).toContainText(
    "Approved",
  );
  await expect(page.getByRole("button", { name: "Approve Bubble Tea Stall" })).toHaveCount(0);
});

test("at 480 px a business missing its bank letter says so; a PNG named .pdf is refused, the right file added", async ({
  page,
}) => {
  await page.setViewportSize({ width: 480, height: 900 });
  await logIn(page, suite.server.url, suite.superAdmin.email, suite.superAdmin.password);
  await page.goto(`${suite.server.url}/business-approval`);
  await page.getByRole("link", { name: "Phone Repair Booth" }).first().click();
  await expect(page.getByRole("heading", { name: "Phone Repair Booth", level: 1 })).toBeVisible();
  await expect(page.getByText("Missing before approval: Bank letter.")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(480);

  const sent: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().includes("/documents")) {
      sent.push(request.url());
    }
  });
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Add bank letter" }).click();
  await (
    await chooser
  ).setFiles({ name: "bank-letter.pdf", mimeType: "application/pdf", buffer: PNG });
  await expect(page.getByText(/not what its name says/)).toBeVisible();
  expect(sent).toHaveLength(1);
  await expect(page.getByText("Missing before approval: Bank letter.")).toBeVisible();

  await switchLanguage(page, "中文");
  await expect(page.getByText("批准前缺少：银行证明信。")).toBeVisible();
  const chooser2 = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "添加银行证明信" }).click();
  await (await chooser2).setFiles({ name: "bank-letter.png", mimeType: "image/png", buffer: PNG });
  await expect(page.getByText("bank-letter.png 已添加到商户文件。")).toBeVisible();
  await expect(page.getByText("批准前缺少：银行证明信。")).toHaveCount(0);
  await expect(page.getByText("bank-letter.png", { exact: true })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(480);
  await switchLanguage(page, "English");
});
