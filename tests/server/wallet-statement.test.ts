/**
 * A wallet's statement (issue 37, item 1) through HTTP on a real database: the user's ledger rows
 * newest first with the balance after each, filtered by kind, period and amount (either way), and
 * a period of it as a PDF with its opening and closing balances; every refusal clear and harmless.
 */
import { beforeAll, describe, expect, it } from "vitest";

import type { walletTransactions } from "../../server/db/schema";
import { payFromWallet, refundPayment, topUpWallet } from "../../server/services/ledger";
import { pdfText } from "../support/pdf";
import { atDaysAgo, daysAgo, insertBusiness } from "./support/money-fixtures";
import {
  call,
  expectError,
  expectNoPermission,
  insertWalletUser,
  useUserDeskSuite,
} from "./support/user-fixtures";

const suite = useUserDeskSuite();

interface Entry {
  id: number;
  createdAt: string;
  reference: string;
  type: string;
  channel: string | null;
  businessName: string | null;
  amountSen: number;
  balanceAfterSen: number;
  status: string;
}

let holder: { id: number; name: string; accountNumber: string };
let business: { id: number; name: string };
/** The wallet's rows as written, oldest first. */
const written: Array<{ reference: string; amountSen: number; balanceAfterSen: number }> = [];

beforeAll(async () => {
  holder = await insertWalletUser(suite.db, 0);
  business = await insertBusiness(suite.db);
  const db = suite.db;
  await db.transaction(async (tx) => {
    const keep = (row: typeof walletTransactions.$inferSelect) =>
      written.push({
        reference: row.reference,
        amountSen: row.amountSen,
        balanceAfterSen: row.balanceAfterSen,
      });
    // 40 days ago RM 50 by FPX, 10 days ago a RM 12.50 payment, 9 days ago RM 2.50 of it back,
    // 2 days ago RM 20 at an agent.
    const account = { accountNumber: holder.accountNumber };
    keep(await topUpWallet(tx, account, { amountSen: 5000, channel: "fpx", at: atDaysAgo(40) }));
    const payment = await payFromWallet(tx, {
      userId: holder.id,
      businessId: business.id,
      amountSen: 1250,
      at: atDaysAgo(10),
    });
    keep(payment);
    keep(await refundPayment(tx, payment.id, { amountSen: 250, at: atDaysAgo(9) }));
    keep(await topUpWallet(tx, account, { amountSen: 2000, channel: "agent", at: atDaysAgo(2) }));
  });
});

const statement = (params: Record<string, unknown> = {}, token = suite.desk, id = holder.id) =>
  call(
    suite.app,
    token,
    "GET",
    `/api/users/${id}/statement?${new URLSearchParams(
      Object.entries(params).map(([key, value]): [string, string] => [key, JSON.stringify(value)]),
    ).toString()}`,
  );

async function entries(params: Record<string, unknown> = {}) {
  const response = await statement(params);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ statement: Entry[]; totalCount: number }>();
}

describe("a wallet's statement", () => {
  it("lists every row of the wallet, newest first, with the balance each left", async () => {
    const { statement: rows, totalCount } = await entries();
    expect(totalCount).toBe(4);
    expect(rows.map((row) => row.reference)).toEqual(written.map((row) => row.reference).reverse());
    expect(rows.map((row) => [row.type, row.amountSen, row.balanceAfterSen])).toEqual([
      ["top_up", 2000, 6000],
      ["refund", 250, 4000],
      ["payment", -1250, 3750],
      ["top_up", 5000, 5000],
    ]);
    expect(rows[0]!.channel).toBe("agent");
    expect(rows[2]!.businessName).toBe(business.name);
    expect(rows[1]!.businessName).toBe(business.name);
  });

  it("filters by kind, by period and by the amount either way", async () => {
    const kinds = await entries({ filter: { type: "top_up" } });
    expect(kinds.statement.map((row) => row.amountSen)).toEqual([2000, 5000]);
    const period = await entries({
      filter: { createdAt: { $gte: daysAgo(11), $lte: daysAgo(8) } },
    });
    expect(period.statement.map((row) => row.type)).toEqual(["refund", "payment"]);
    // RM 10 to RM 20 finds the RM 12.50 payment (money out) and the RM 20 top-up (money in).
    const sized = await entries({ filter: { sizeSen: { $gte: 1000, $lte: 2000 } } });
    expect(sized.statement.map((row) => row.amountSen)).toEqual([2000, -1250]);
  });

  it("is the User (0) code's, and 404 for a user that does not exist", async () => {
    expectNoPermission(await statement({}, suite.finance), "GET", "User statement");
    expectError(await statement({}, suite.desk, 99_999_999), 404, "NOT_FOUND");
    expectError(await statement({ filter: { reference: { $gt: 1 } } }), 400, "INVALID_QUERY");
  });
});

const pdf = (query: string, token = suite.desk, id: number | string = holder.id) =>
  call(suite.app, token, "GET", `/api/users/${id}/statement.pdf?${query}`);

describe("a printed statement", () => {
  it("holds the period's rows between its opening and closing balances", async () => {
    const response = await pdf(`from=${daysAgo(12)}&to=${daysAgo(1)}&lang=en-US`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["content-type"]).toBe("application/pdf");
    expect(response.headers["content-disposition"]).toContain(
      `statement-${holder.accountNumber}-${daysAgo(12)}-${daysAgo(1)}.pdf`,
    );
    const text = await pdfText(response.rawPayload);
    expect(text).toContain("Wallet statement");
    expect(text).toContain(holder.name);
    expect(text).toContain(holder.accountNumber);
    // Opening RM 50 (the top-up before the period); in RM 2.50 + RM 20, out RM 12.50; closing RM 60.
    expect(text).toMatch(/Opening balance[\s\S]*RM 50\.00/);
    expect(text).toContain("RM 22.50");
    expect(text).toContain("RM 12.50");
    expect(text).toContain("RM 60.00");
    for (const row of written.slice(1)) expect(text).toContain(row.reference);
    expect(text).not.toContain(written[0]!.reference);
    expect(text).toContain(business.name);
  });

  it("says so when no money moved in the period", async () => {
    const text = await pdfText((await pdf(`from=${daysAgo(30)}&to=${daysAgo(20)}`)).rawPayload);
    expect(text).toContain("No money moved in this wallet in the period.");
    expect(text.match(/RM 50\.00/g)?.length).toBeGreaterThanOrEqual(2); // opening = closing
  });

  it("is written in the language asked for", async () => {
    const response = await pdf(`from=${daysAgo(12)}&to=${daysAgo(1)}&lang=cn-ZH`);
    expect(response.statusCode, response.body).toBe(200);
    const text = await pdfText(response.rawPayload);
    expect(text).toMatch(/钱包对账单|Wallet statement/); // Chinese when the server has the font
    expect(text).toContain(written[1]!.reference);
  });

  it("refuses a period that is reversed, too long or not made of dates, and other callers", async () => {
    expectError(await pdf(`from=${daysAgo(1)}&to=${daysAgo(3)}`), 400, "RANGE_REVERSED");
    const tooLong = expectError(
      await pdf("from=2016-01-01&to=2025-12-31"),
      400,
      "STATEMENT_PERIOD_TOO_LONG",
    ) as { data?: unknown };
    expect(tooLong.data).toEqual({ maxDays: 366 });
    expect((await pdf("from=2025-01-01&to=2026-01-01")).statusCode).toBe(200); // 366 days
    for (const bad of [
      "from=2026-02-30&to=2026-03-01",
      "from=yesterday&to=2026-03-01",
      `from=${daysAgo(3)}`,
      `from=${daysAgo(3)}&to=${daysAgo(1)}&lang=xx`,
      `from=${daysAgo(3)}%00&to=${daysAgo(1)}`,
      `from=${daysAgo(3)}&to=${daysAgo(1)}&extra=1`,
    ]) {
      expect((await pdf(bad)).statusCode, bad).toBe(400);
    }
    expectNoPermission(
      await pdf(`from=${daysAgo(3)}&to=${daysAgo(1)}`, suite.finance),
      "GET",
      "Wallet Statement",
    );
    expectError(
      await pdf(`from=${daysAgo(3)}&to=${daysAgo(1)}`, suite.desk, 99_999_999),
      404,
      "NOT_FOUND",
    );
  });
});
