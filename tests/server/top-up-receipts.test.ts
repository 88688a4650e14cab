/**
 * Receipts of counter top-ups and their reversals (issue 37, item 3) through HTTP on a real
 * database: the PDF printed at the counter (number, time in the business zone, holder, amount,
 * staff and approver, balance after; a reversed top-up stamped with its reversal's number), the
 * e-mail to the holder in the holder's language, audited; and every refusal changing nothing.
 */
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";

import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";

import { users, walletTransactions } from "../../server/db/schema";
import { topUpWallet } from "../../server/services/ledger";
import { pdfText } from "../support/pdf";
import { DEMO, login } from "./support/app";
import { takeOnlyMail } from "./support/mime";
import {
  auditEntries,
  call,
  callApproved,
  expectError,
  expectNoPermission,
  insertWalletUser,
  useUserDeskSuite,
} from "./support/user-fixtures";

const suite = useUserDeskSuite();
const outbox = () => join(suite.testDb.dataDir, "outbox");
const mails = async () => (await readdir(outbox()).catch(() => [])).length;
let financeName = "";
let approverName = "";

beforeAll(async () => {
  financeName = (await login(suite.app, DEMO.finance)).admin.name;
  approverName = (await login(suite.app, DEMO.approver)).admin.name;
});

afterEach(async () => {
  await rm(outbox(), { recursive: true, force: true });
});

interface TopUpRow {
  id: number;
  reference: string;
  balanceAfterSen: number;
  reversalReference: string | null;
}

/** A counter top-up of `amountSen` to a fresh wallet holding `balanceSen`, approved if it waits. */
async function counterTopUp(amountSen: number, balanceSen = 1000) {
  const holder = await insertWalletUser(suite.db, balanceSen);
  const response = await callApproved(
    suite.app,
    suite.finance,
    "POST",
    "/api/top-up-transactions",
    {
      accountNumber: holder.accountNumber,
      amountSen,
      channel: "counter",
    },
  );
  expect(response.statusCode, response.body).toBe(201);
  return { holder, topUp: response.json<TopUpRow>() };
}

const reverse = async (id: number) => {
  const response = await callApproved(
    suite.app,
    suite.finance,
    "POST",
    `/api/top-up-transactions/${id}/reverse`,
    { remark: "Keyed in twice" },
  );
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TopUpRow>();
};

const receipt = (id: number | string, path = "receipt.pdf", token = suite.finance) =>
  call(suite.app, token, "GET", `/api/top-up-transactions/${id}/${path}`);

/** A label and its value on a receipt, as a PDF reader extracts them. */
const shows = (label: string, value: string) =>
  new RegExp(`${label}\\s+${value.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")}`);

const emailReceipt = (id: number | string, path = "email-receipt", token = suite.finance) =>
  suite.app.inject({
    method: "POST",
    url: `/v1/api/top-up-transactions/${id}/${path}`,
    // The administrator's console speaks Chinese: the holder still reads their own language.
    headers: { authorization: token, "accept-language": "cn-ZH" },
  });

async function receiptText(id: number | string, path = "receipt.pdf") {
  const response = await receipt(id, path);
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers["content-type"]).toBe("application/pdf");
  expect(response.rawPayload.subarray(0, 4).toString()).toBe("%PDF");
  return { response, text: await pdfText(response.rawPayload) };
}

describe("a counter top-up's receipt", () => {
  it("prints its number, time, holder, amount, staff member and the balance after", async () => {
    const { holder, topUp } = await counterTopUp(1234, 1000);
    const { response, text } = await receiptText(topUp.id);
    const number = `RC-${topUp.reference}`;
    expect(response.headers["content-disposition"]).toContain(`${number}.pdf`);
    expect(text).toContain("Top-up receipt");
    expect(text).toContain(number);
    expect(text).toContain(holder.name);
    expect(text).toContain(holder.accountNumber);
    expect(text).toContain("RM 12.34");
    expect(text).toContain(financeName);
    expect(text).toContain("RM 22.34"); // 10.00 before, 12.34 credited
    // The time as the console shows it, never ISO text.
    expect(text).toMatch(
      /\b\d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}\b/,
    );
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    // The same number on every copy.
    expect((await receiptText(topUp.id)).text).toContain(number);
  });

  it("names the maker and the approver of a top-up that waited for a second approver", async () => {
    const { topUp } = await counterTopUp(30_000); // above the policy's RM 200
    const { text } = await receiptText(topUp.id);
    expect(text).toContain("RM 300.00");
    expect(text).toMatch(shows("Served by", financeName));
    expect(text).toMatch(shows("Approved by", approverName));
  });

  it("is written in the language asked for, else the administrator's", async () => {
    const { topUp } = await counterTopUp(500);
    const chinese = await receipt(topUp.id, "receipt.pdf?lang=cn-ZH");
    expect(chinese.statusCode, chinese.body).toBe(200);
    const text = await pdfText(chinese.rawPayload);
    expect(text).toContain(`RC-${topUp.reference}`);
    expect(text).toMatch(/充值收据|Top-up receipt/); // Chinese when the server has the font
    expect(text).toMatch(/\d{4}年\d{1,2}月\d{1,2}日|\d{2} \w{3} \d{4}/);
    // A language the console does not speak is no error: the administrator's is used.
    const unknown = await receipt(topUp.id, "receipt.pdf?lang=fr");
    expect(unknown.statusCode, unknown.body).toBe(200);
    expect(await pdfText(unknown.rawPayload)).toContain("Top-up receipt");
  });

  it("of a reversed top-up is marked reversed with the reversal's number; the reversal has its own", async () => {
    const { holder, topUp } = await counterTopUp(2000, 1000);
    const reversed = await reverse(topUp.id);
    expect(reversed.reversalReference).toBe(`RV${topUp.reference}`);
    const original = (await receiptText(topUp.id)).text;
    expect(original).toContain("REVERSED");
    expect(original).toContain(`Reversed by receipt RC-RV${topUp.reference}`);
    expect(original).toContain("RM 20.00");

    const { response, text } = await receiptText(topUp.id, "reversal-receipt.pdf");
    expect(response.headers["content-disposition"]).toContain(`RC-RV${topUp.reference}.pdf`);
    expect(text).toContain("Reversal receipt");
    expect(text).toContain(`RC-RV${topUp.reference}`);
    expect(text).toContain(holder.name);
    expect(text).toContain("-RM 20.00");
    expect(text).toContain("RM 10.00"); // the balance after the reversal
    expect(text).toMatch(shows("Served by", financeName));
    expect(text).toMatch(shows("Approved by", approverName)); // a reversal always waits
    expect(text).toMatch(shows("Reverses receipt", `RC-${topUp.reference}`));
    expect(text).toContain("Keyed in twice");
  });
});

describe("no receipt", () => {
  it("for a top-up that is not a counter top-up, nor a reversal receipt for one never reversed", async () => {
    const holder = await insertWalletUser(suite.db, 0);
    const fpx = await suite.db.transaction((tx) =>
      topUpWallet(tx, { accountNumber: holder.accountNumber }, { amountSen: 1000, channel: "fpx" }),
    );
    expectError(await receipt(fpx.id), 409, "NO_RECEIPT");
    expectError(await emailReceipt(fpx.id), 409, "NO_RECEIPT");
    const { topUp } = await counterTopUp(700);
    expectError(await receipt(topUp.id, "reversal-receipt.pdf"), 409, "NO_RECEIPT");
    expectError(await emailReceipt(topUp.id, "email-reversal-receipt"), 409, "NO_RECEIPT");
    expect(await mails()).toBe(0);
  });

  it("for ids that are not a top-up's: 404; not numbers or too large: 400", async () => {
    expectError(await receipt(999_999_999), 404, "NOT_FOUND");
    expectError(await emailReceipt(999_999_999), 404, "NOT_FOUND");
    // Another ledger row (a wallet's opening adjustment) is no top-up either.
    const holder = await insertWalletUser(suite.db, 500);
    const [adjustment] = await suite.db
      .select({ id: walletTransactions.id })
      .from(walletTransactions)
      .where(eq(walletTransactions.userId, holder.id));
    expectError(await receipt(adjustment!.id), 404, "NOT_FOUND");
    expectError(await emailReceipt(adjustment!.id, "email-reversal-receipt"), 404, "NOT_FOUND");
    for (const bad of ["abc", "1.5", "-1", "99999999999999999999"]) {
      expectError(await receipt(bad), 400, "VALIDATION_ERROR");
      expectError(await emailReceipt(bad), 400, "VALIDATION_ERROR");
    }
    expect(await mails()).toBe(0);
  });

  it("for staff without the top-ups permission", async () => {
    const { topUp } = await counterTopUp(600);
    expectNoPermission(await receipt(topUp.id, "receipt.pdf", suite.desk), "GET", "Top Up Receipt");
    expectNoPermission(
      await emailReceipt(topUp.id, "email-receipt", suite.desk),
      "POST",
      "E-mail Top Up Receipt",
    );
    expect(await mails()).toBe(0);
  });
});

describe("e-mailing a receipt", () => {
  it("sends it to the holder in the holder's language, answers where it went and is audited", async () => {
    const { holder, topUp } = await counterTopUp(1500, 0);
    const sent = await emailReceipt(topUp.id);
    expect(sent.statusCode, sent.body).toBe(202);
    const number = `RC-${topUp.reference}`;
    expect(sent.json()).toEqual({ receiptNumber: number, email: holder.email, language: "en-US" });
    const mail = await takeOnlyMail(outbox());
    expect(mail.to).toBe(holder.email);
    expect(mail.subject).toBe(`Your UCSI Wallet receipt ${number}`);
    for (const shown of [number, holder.name, holder.accountNumber, "RM 15.00", financeName]) {
      expect(mail.text).toContain(shown);
      expect(mail.html).toContain(shown);
    }
    expect(mail.text).toContain("Balance after: RM 15.00");
    expect(mail.text).toContain(`Hello ${holder.name},`);
    const [entry] = await auditEntries(suite.db, "wallet_transactions", topUp.id);
    expect(entry).toMatchObject({
      action: "top_up.email_receipt",
      after: { receiptNumber: number, email: holder.email, language: "en-US" },
    });
  });

  it("sends the reversal's receipt once the top-up is reversed", async () => {
    const { holder, topUp } = await counterTopUp(900, 1000);
    expectError(await emailReceipt(topUp.id, "email-reversal-receipt"), 409, "NO_RECEIPT");
    await reverse(topUp.id);
    const sent = await emailReceipt(topUp.id, "email-reversal-receipt");
    expect(sent.statusCode, sent.body).toBe(202);
    expect(sent.json()).toMatchObject({ receiptNumber: `RC-RV${topUp.reference}` });
    const mail = await takeOnlyMail(outbox());
    expect(mail.to).toBe(holder.email);
    expect(mail.text).toContain("Reversal receipt");
    expect(mail.text).toContain("-RM 9.00");
    const [entry] = await auditEntries(suite.db, "wallet_transactions", topUp.id);
    expect(entry).toMatchObject({ action: "top_up.email_reversal_receipt" });
  });

  it("refuses a holder without an e-mail address: 409 HOLDER_NO_EMAIL, nothing sent or audited", async () => {
    const { holder, topUp } = await counterTopUp(800);
    await suite.db.update(users).set({ email: null }).where(eq(users.id, holder.id));
    const before = await auditEntries(suite.db, "wallet_transactions", topUp.id);
    expectError(await emailReceipt(topUp.id), 409, "HOLDER_NO_EMAIL");
    expect(await mails()).toBe(0);
    expect(await auditEntries(suite.db, "wallet_transactions", topUp.id)).toEqual(before);
    // It can still be printed.
    expect((await receipt(topUp.id)).statusCode).toBe(200);
  });
});
