/**
 * The rider and agent story (issue 5), against the real started server: a user desk
 * administrator (code 0) approves a pending rider with a remark through the users declaration's
 * "Approve rider" button and dialog (the status changes, PATCH /api/users/{id}/rider-verification);
 * an attendance range whose end precedes its start is refused in the form, before any request; a
 * wrong-type document is refused in the browser and a small PDF is uploaded and listed; an
 * agent's type is changed in its dialog; an agent's commission of 101, then 100.01, is refused
 * in the dialog with the message and changes nothing, and 12.5 is saved (1250 basis points) and
 * shown as 12.50%. The refusals are also played in Chinese.
 */
import { expect, test } from "./support/fixtures";
import { logIn, switchLanguage } from "./support/console";
import { e2ePort } from "./support/ports";
import { demoLogins, startServer, type RunningServer } from "./support/server";

const PORT = e2ePort(50);
let server: RunningServer;
let desk: { email: string; password: string };
let rider: { id: number; name: string };
let agent: {
  id: number;
  name: string;
  commission: string;
  /** The type as the section shows it, and as the dialog's choice names it. */
  typeLabel: string;
  typeOption: string;
  /** The type the story changes it to. */
  newType: AgentType;
  newTypeLabel: string;
  newTypeOption: string;
};

type AgentType = "campus" | "merchant" | "external";
/** A type in the section's and the dialog's words (users.json agentType). */
const TYPE_OPTIONS: Record<AgentType, string> = {
  campus: "Campus agent",
  merchant: "Merchant agent",
  external: "External agent",
};

test.describe.configure({ mode: "serial" });

interface ListedUser {
  id: number;
  name: string;
  accountNumber: string;
  role: string;
}

async function api<T>(path: string, token: string): Promise<T> {
  const response = await fetch(`${server.url}/v1${path}`, { headers: { Authorization: token } });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

test.beforeAll(async () => {
  server = await startServer({
    port: PORT,
    env: process.env.DIST_DIR ? { DIST_DIR: process.env.DIST_DIR } : {},
  });
  const login = demoLogins(server.output()).get("user desk");
  if (!login) throw new Error(`the server printed no user desk login:\n${server.output()}`);
  desk = login;
  const auth = await fetch(`${server.url}/v1/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(desk),
  });
  const { token } = (await auth.json()) as { token: string };

  // A pending rider and an agent, from the first pages of the user list.
  let pendingRider: ListedUser | undefined;
  let anAgent: { user: ListedUser; commissionRateBp: number; agentType: AgentType } | undefined;
  for (let page = 1; page <= 10 && !(pendingRider && anAgent); page++) {
    const pagination = encodeURIComponent(JSON.stringify({ page, pageSize: 100 }));
    const { users } = await api<{ users: ListedUser[] }>(
      `/api/users/aggregation?pagination=${pagination}`,
      token,
    );
    if (users.length === 0) break;
    for (const user of users) {
      if (!pendingRider && user.role === "rider") {
        const details = await api<{ rider: { verificationStatus: string } }>(
          `/user-mgmt/get-rider-details?account_number=${encodeURIComponent(user.accountNumber)}&user_type=rider`,
          token,
        );
        if (details.rider.verificationStatus === "pending") pendingRider = user;
      }
      if (!anAgent && user.role === "agent") {
        const detail = await api<{
          agent: { commissionRateBp: number; agentType: AgentType } | null;
        }>(`/api/users/${user.id}`, token);
        if (detail.agent && detail.agent.commissionRateBp !== 1250) {
          anAgent = { user, ...detail.agent };
        }
      }
    }
  }
  if (!pendingRider) throw new Error("no pending rider in the demo users");
  if (!anAgent) throw new Error("no agent in the demo users");
  rider = { id: pendingRider.id, name: pendingRider.name };
  const bp = anAgent.commissionRateBp;
  const newType: AgentType = anAgent.agentType === "merchant" ? "external" : "merchant";
  agent = {
    id: anAgent.user.id,
    name: anAgent.user.name,
    commission: `${Math.floor(bp / 100)}.${String(bp % 100).padStart(2, "0")}%`,
    typeLabel: TYPE_OPTIONS[anAgent.agentType],
    typeOption: TYPE_OPTIONS[anAgent.agentType],
    newType,
    newTypeLabel: TYPE_OPTIONS[newType],
    newTypeOption: TYPE_OPTIONS[newType],
  };
});

test.afterAll(async () => {
  await server?.stop();
});

test("approve a pending rider with a remark", async ({ page }) => {
  await logIn(page, server.url, desk.email, desk.password);
  await page.goto(`${server.url}/user-details/${rider.id}`);
  await expect(page.getByRole("heading", { name: rider.name })).toBeVisible();
  const details = page
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: "Rider details" }) });
  await expect(details.getByText("Pending", { exact: true })).toBeVisible();

  const sent: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes(`/api/users/${rider.id}/rider-verification`)) {
      sent.push(request.postData() ?? "");
    }
  });
  await details.getByRole("button", { name: `Approve rider ${rider.name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Approve ${rider.name} as a rider?` });
  await dialog.getByLabel("Remark").fill("Licence and plate checked");
  await dialog.getByRole("button", { name: "Approve rider" }).click();
  await expect(page.getByText(`${rider.name} is approved as a rider`)).toBeVisible();
  await expect(dialog).toBeHidden();
  expect(sent.map((body) => JSON.parse(body) as unknown)).toEqual([
    { action: "Approved", remark: "Licence and plate checked" },
  ]);

  await expect(details.getByText("Approved", { exact: true })).toBeVisible();
  await expect(details.getByText("Licence and plate checked")).toBeVisible();
  await expect(details.getByRole("button", { name: /^(Approve|Reject) rider/ })).toHaveCount(0);

  // What is stored: the rider's details, read again from the server.
  await page.reload();
  await expect(details.getByText("Approved", { exact: true })).toBeVisible();
  await expect(details.getByText("Licence and plate checked")).toBeVisible();
});

test("an attendance range whose end precedes its start is refused", async ({ page }) => {
  await logIn(page, server.url, desk.email, desk.password);
  await page.goto(`${server.url}/user-details/${rider.id}`);
  const attendance = page
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: "Attendance" }) });
  await expect(attendance.getByRole("button", { name: "Show" })).toBeVisible();

  // The refused range is never asked for (the default range's first load may still arrive late).
  const asked: string[] = [];
  page.on("request", (request) => {
    const url = request.url();
    if (url.includes("/user-mgmt/rider-attendance") && url.includes("2026-02-")) asked.push(url);
  });
  const start = attendance.getByPlaceholder("Start date");
  const end = attendance.getByPlaceholder("End date");
  await start.click();
  await start.fill("2026-02-10");
  await start.press("Enter");
  await end.fill("2026-02-01");
  await end.press("Enter");
  await attendance.getByRole("button", { name: "Show" }).click();
  await expect(attendance.getByText("The end date cannot be before the start date.")).toBeVisible();
  expect(asked).toEqual([]);
});

test("a wrong-type document is refused and a small PDF is uploaded and listed", async ({
  page,
}) => {
  await logIn(page, server.url, desk.email, desk.password);
  await page.goto(`${server.url}/user-details/${rider.id}`);
  const details = page
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: "Rider details" }) });
  await details.getByRole("button", { name: "Edit details" }).click();
  const dialog = page.getByRole("dialog", { name: `Edit rider details: ${rider.name}` });
  const input = dialog.locator("input[type=file]");

  await input.setInputFiles({
    name: "notes.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("not a document"),
  });
  await expect(page.getByText('"notes.txt" is not a PDF, JPEG or PNG file.')).toBeVisible();
  await expect(dialog.getByText("notes.txt")).toHaveCount(0);

  await input.setInputFiles({
    name: "licence-scan.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"),
  });
  await expect(dialog.getByText("licence-scan.pdf")).toBeVisible();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("The rider's details were saved.")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(details.getByRole("button", { name: "Download licence-scan.pdf" })).toBeVisible();
});

test("an agent's type is changed in its dialog", async ({ page }) => {
  await logIn(page, server.url, desk.email, desk.password);
  const sent: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes(`/api/users/${agent.id}/agent-type`)) {
      sent.push(request.postData() ?? "");
    }
  });
  await page.goto(`${server.url}/user-details/${agent.id}`);
  const panel = page
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: "Top-up agent" }) });
  await expect(panel.getByText(agent.typeLabel, { exact: true })).toBeVisible();

  await panel.getByRole("button", { name: `Change type: ${agent.name}` }).click();
  const dialog = page.getByRole("dialog", { name: `The agent type of ${agent.name}` });
  await expect(dialog.getByRole("combobox", { name: "Agent type" })).toBeVisible();
  // The dialog opens on the type the agent has.
  await expect(dialog.locator(".ant-select-selection-item")).toHaveText(agent.typeOption);
  // The chosen type covers antd's search input: open the list by the select itself.
  await dialog.locator(".ant-select").click();
  await page.locator(".ant-select-item-option", { hasText: agent.newTypeOption }).click();
  await dialog.getByRole("button", { name: "Change type" }).click();
  await expect(page.getByText(`The agent type of ${agent.name} is saved`)).toBeVisible();
  await expect(dialog).toBeHidden();
  expect(sent.map((body) => JSON.parse(body) as unknown)).toEqual([{ agentType: agent.newType }]);
  await expect(panel.getByText(agent.newTypeLabel, { exact: true })).toBeVisible();
  await page.reload();
  await expect(panel.getByText(agent.newTypeLabel, { exact: true })).toBeVisible();
});

test("an agent's commission: 101 and 100.01 refused, 12.5 saved as 12.50%", async ({ page }) => {
  await logIn(page, server.url, desk.email, desk.password);
  const sent: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes(`/api/users/${agent.id}/agent-commission`)) {
      sent.push(request.postData() ?? "");
    }
  });
  await page.goto(`${server.url}/user-details/${agent.id}`);
  const panel = page
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: "Top-up agent" }) });
  const shown = panel.getByTestId("agent-commission");
  await expect(shown).toHaveText(agent.commission);
  await panel.getByRole("button", { name: `Change commission: ${agent.name}` }).click();
  const dialog = page.getByRole("dialog", { name: `The commission rate of ${agent.name}` });
  const rate = dialog.getByRole("spinbutton", { name: "Commission rate" });
  // The dialog opens on the rate the agent has, as a percentage.
  await expect(rate).toHaveValue(agent.commission.replace("%", ""));
  const save = dialog.getByRole("button", { name: "Change commission" });
  const message = "Commission rate must be at most 100.00%.";

  for (const invalid of ["101", "100.01"]) {
    await rate.fill(invalid);
    await save.click();
    await expect(dialog.getByText(message)).toBeVisible();
    await expect(shown).toHaveText(agent.commission);
  }
  expect(sent).toEqual([]);

  await rate.fill("12.5");
  await expect(dialog.getByText(message)).toBeHidden();
  await save.click();
  await expect(page.getByText(`The commission rate of ${agent.name} is saved`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(shown).toHaveText("12.50%");
  expect(sent).toHaveLength(1);
  expect(JSON.parse(sent[0]!)).toEqual({ commissionRateBp: 1250 });
  await page.reload();
  await expect(shown).toHaveText("12.50%");
});

test("in Chinese, the refusals read in Chinese", async ({ page }) => {
  await logIn(page, server.url, desk.email, desk.password);
  await switchLanguage(page, "中文");
  await page.goto(`${server.url}/user-details/${agent.id}`);
  const panel = page
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: "充值代理" }) });
  await panel.getByRole("button", { name: `更改佣金：${agent.name}` }).click();
  const dialog = page.getByRole("dialog", { name: `${agent.name} 的佣金比例` });
  await dialog.getByRole("spinbutton", { name: "佣金比例" }).fill("101");
  await dialog.getByRole("button", { name: "更改佣金" }).click();
  await expect(dialog.getByText("佣金比例不能超过 100.00%。")).toBeVisible();
  await dialog.getByRole("button", { name: /^取\s?消$/ }).click();
  await expect(dialog).toBeHidden();
  await expect(panel.getByTestId("agent-commission")).toHaveText("12.50%");

  await page.goto(`${server.url}/user-details/${rider.id}`);
  const details = page
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: "骑手资料" }) });
  await expect(details.getByText("审核状态")).toBeVisible();
  await details.getByRole("button", { name: "编辑资料" }).click();
  await page
    .getByRole("dialog")
    .locator("input[type=file]")
    .setInputFiles({
      name: "photo.gif",
      mimeType: "image/gif",
      buffer: Buffer.from("GIF89a"),
    });
  await expect(page.getByText("“photo.gif”不是 PDF、JPEG 或 PNG 文件。")).toBeVisible();
});
