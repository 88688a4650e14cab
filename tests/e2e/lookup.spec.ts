/**
 * Issue 37 item 2: look-up by reference. A payment's reference typed in the command palette
 * (Ctrl / ⌘ + K) opens its Wallet Transaction page with its ledger facts, the settlement that paid
 * it out and the rows that undo it; the dashboard's box opens a settlement by its invoice number
 * and says in place, in the console's language, that a wildcard names nothing. On a 480 px phone
 * and at 1366 px.
 */
import { logIn, seriousA11yViolations, switchLanguage } from "./support/console";
import { expect, test, useSuperAdminServer } from "./support/fixtures";

const suite = useSuperAdminServer(200);

test.describe.configure({ mode: "serial" });

interface Settlement {
  id: number;
  invoiceNumber: string;
}
interface Item {
  id: number;
  reference: string;
  type: string;
}

/** `path` of the API as the super administrator. */
async function api<T>(path: string): Promise<T> {
  const answer = await fetch(`${suite.server.url}/v1${path}`, {
    headers: { Authorization: suite.token },
  });
  if (!answer.ok) throw new Error(`${path}: ${answer.status}`);
  return (await answer.json()) as T;
}

const PAGE = new URLSearchParams({ pagination: JSON.stringify({ page: 1, pageSize: 20 }) });

/** A settled payment of the demo data, and the settlement that paid it out. */
async function settledPayment(): Promise<{ settlement: Settlement; payment: Item }> {
  const { settlements } = await api<{ settlements: Settlement[] }>(
    `/api/settlements/aggregation?${PAGE.toString()}`,
  );
  for (const settlement of settlements) {
    const { items } = await api<{ items: Item[] }>(
      `/api/settlements/${settlement.id}/items?${PAGE.toString()}`,
    );
    const payment = items.find((item) => item.type === "payment");
    if (payment) return { settlement, payment };
  }
  throw new Error("no settled payment in the demo data");
}

for (const size of [
  { width: 1366, height: 900 },
  { width: 480, height: 900 },
]) {
  test(`at ${size.width} px: the palette opens a payment by its reference, the dashboard a settlement by its invoice number`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    const { settlement, payment } = await settledPayment();
    await logIn(page, suite.server.url, suite.superAdmin.email, suite.superAdmin.password);
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();

    // The palette: the reference in any case, in full.
    await page.keyboard.press("Control+k");
    const palette = page.getByRole("dialog", { name: "Go to…" });
    await expect(palette).toBeVisible();
    await page.keyboard.type(payment.reference.toLowerCase());
    const open = palette.getByRole("option", { name: `Open payment ${payment.reference}` });
    await expect(open).toBeVisible();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/wallet-transaction/${payment.id}$`));
    await expect(page.getByRole("heading", { level: 1, name: payment.reference })).toBeVisible();
    // Its ledger facts: what, how much, the balance it left, who paid whom, and its settlement.
    const facts = page.locator(".ant-descriptions");
    await expect(facts).toContainText("Payment");
    await expect(facts).toContainText("Balance after");
    await expect(facts).toContainText("Business");
    await expect(facts.getByRole("link", { name: settlement.invoiceNumber })).toBeVisible();
    await expect(
      page.getByRole("heading", { name: "Rows that undo it (refunds, reversal)" }),
    ).toBeVisible();
    await expect(page.getByRole("heading", { name: "History" })).toBeVisible();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The dashboard's box: a wildcard names nothing, said in place; the invoice number opens.
    await page.goto(`${suite.server.url}/dashboard`);
    const box = page.getByRole("searchbox", { name: "Reference" });
    await box.fill("INV-%");
    await box.press("Enter");
    await expect(page.getByRole("alert")).toContainText("Nothing you may open has this reference");
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await box.fill(` ${settlement.invoiceNumber.toLowerCase()} `);
    await box.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/settlement-details/${settlement.id}$`));
    await expect(
      page.getByRole("heading", { level: 1, name: settlement.invoiceNumber }),
    ).toBeVisible();
  });
}

test("in Chinese: the box and the ledger row's page speak Chinese", async ({ page }) => {
  await page.setViewportSize({ width: 480, height: 900 });
  const { payment } = await settledPayment();
  await logIn(page, suite.server.url, suite.superAdmin.email, suite.superAdmin.password);
  await switchLanguage(page, "中文");
  const box = page.getByRole("searchbox", { name: "参考号" });
  await box.fill("RPT-999999");
  await box.press("Enter");
  await expect(page.getByRole("alert")).toContainText("没有您可查看的记录使用此参考号");
  await box.fill(payment.reference);
  await box.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/wallet-transaction/${payment.id}$`));
  await expect(page.locator(".ant-descriptions")).toContainText("交易后余额");
  await expect(page.getByRole("heading", { name: "撤销此记录的账目（退款、冲正）" })).toBeVisible();
});
