/**
 * A counter top-up's receipt, or its reversal's: the facts both the printed PDF
 * (server/modules/top-ups/receipt-pdf.ts) and the e-mail show, worded from
 * locales/<lang>/topUp.json ("receipt"), and the e-mail to the account holder.
 */
import type { FastifyBaseLogger } from "fastify";

import enUS from "../../locales/en-US/topUp.json";
import cnZH from "../../locales/cn-ZH/topUp.json";
import { formatRinggit } from "../../src/shared/money";
import { HttpError } from "../errors";
import { consoleDate, fill } from "../documents/words";
import type { Language } from "../http/language";
import { escapeHtml } from "./report-html";
import type { Mailer, OutgoingMail } from "./transport";

export type ReceiptKind = "topUp" | "reversal";

/** What a receipt shows, read from the ledger row it receipts. */
export interface TopUpReceipt {
  kind: ReceiptKind;
  number: string;
  /** The ledger row's reference (the top-up's, or its reversal's). */
  reference: string;
  at: Date;
  holder: { name: string; accountNumber: string; email: string | null };
  /** Signed as in the ledger: a reversal's is negative. */
  amountSen: number;
  /** The wallet's balance after this row, as the row wrote it. */
  balanceAfterSen: number;
  /** The staff member who keyed it, and who approved it when it waited for a second approver. */
  keyedBy: string | null;
  approvedBy: string | null;
  remark: string | null;
  /** A reversal receipt: the top-up receipt it takes back. */
  reverses: string | null;
  /** A top-up receipt since reversed: the reversal's receipt number. */
  reversedBy: string | null;
}

export type ReceiptTexts = typeof enUS.receipt;
export const RECEIPT_TEXTS: Record<Language, ReceiptTexts> = {
  "en-US": enUS.receipt,
  "cn-ZH": cnZH.receipt,
};

/**
 * When it happened in the campus's business zone, as the console shows an instant: "28 Nov 2026
 * 14:05" in English, "2026年11月28日 14:05" in Chinese.
 */
export const receiptDateTime = (at: Date, language: Language, timeZone: string): string =>
  consoleDate(at, language, { timeZone, withTime: true });

/** The receipt's title and its rows, label and value, in `language`. */
export function receiptLines(receipt: TopUpReceipt, language: Language, timeZone: string) {
  const t = RECEIPT_TEXTS[language];
  const rows: Array<[string, string]> = [
    [t.number, receipt.number],
    [t.dateTime, receiptDateTime(receipt.at, language, timeZone)],
    [t.holder, receipt.holder.name],
    [t.accountNumber, receipt.holder.accountNumber],
    [t.reference, receipt.reference],
    [receipt.kind === "reversal" ? t.reversalAmount : t.amount, formatRinggit(receipt.amountSen)],
    [t.balanceAfter, formatRinggit(receipt.balanceAfterSen)],
  ];
  if (receipt.keyedBy) rows.push([t.keyedBy, receipt.keyedBy]);
  if (receipt.approvedBy) rows.push([t.approvedBy, receipt.approvedBy]);
  if (receipt.remark) rows.push([t.remark, receipt.remark]);
  if (receipt.reverses) rows.push([t.reverses, receipt.reverses]);
  return {
    title: receipt.kind === "reversal" ? t.reversalTitle : t.title,
    rows,
    /** A top-up since reversed is stamped so, naming the reversal's receipt. */
    reversed: receipt.reversedBy
      ? { stamp: t.reversed, line: fill(t.reversedBy, { number: receipt.reversedBy }) }
      : undefined,
  };
}

/** The receipt as an e-mail to its holder, the receipt itself in the body. */
export function renderReceiptEmail(
  receipt: TopUpReceipt & { holder: { email: string } },
  language: Language,
  timeZone: string,
): OutgoingMail {
  const t = RECEIPT_TEXTS[language];
  const { title, rows, reversed } = receiptLines(receipt, language, timeZone);
  const greeting = fill(t.emailGreeting, { name: receipt.holder.name });
  const intro = receipt.kind === "reversal" ? t.emailReversalIntro : t.emailIntro;
  const text = [
    greeting,
    "",
    intro,
    "",
    `${t.issuer}: ${title}`,
    ...(reversed ? [`${reversed.stamp}: ${reversed.line}`] : []),
    ...rows.map(([label, value]) => `${label}: ${value}`),
    "",
    t.footer,
  ].join("\n");
  const cell = "padding:4px 12px 4px 0;border-bottom:1px solid #e5e7eb";
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#111827">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(intro)}</p>
<h2 style="font-size:18px">${escapeHtml(t.issuer)}: ${escapeHtml(title)}</h2>
${reversed ? `<p style="color:#b91c1c;font-weight:bold">${escapeHtml(reversed.stamp)}: ${escapeHtml(reversed.line)}</p>` : ""}
<table style="border-collapse:collapse">
${rows
  .map(
    ([label, value]) =>
      `<tr><th scope="row" style="${cell};text-align:left;color:#555555;font-weight:normal">${escapeHtml(label)}</th><td style="${cell}">${escapeHtml(value)}</td></tr>`,
  )
  .join("\n")}
</table>
<p style="color:#555555;font-size:12px">${escapeHtml(t.footer)}</p>
</body></html>`;
  return {
    to: receipt.holder.email,
    subject: fill(t.emailSubject, { number: receipt.number }),
    text,
    html,
  };
}

export const RECEIPT_MAIL_FAILED_MESSAGE = "The receipt could not be e-mailed, please try again";

/** Sends the receipt's e-mail: 502 MAIL_FAILED when the mail server refused or was unreachable. */
export async function sendReceipt(
  mailer: Mailer,
  log: FastifyBaseLogger,
  mail: OutgoingMail,
): Promise<void> {
  try {
    await mailer.send(mail);
  } catch (error) {
    const { code, responseCode } = (error ?? {}) as Record<string, unknown>;
    log.error({ event: "top_up.email_receipt", code, responseCode }, "receipt mail not sent");
    throw new HttpError(502, RECEIPT_MAIL_FAILED_MESSAGE, "MAIL_FAILED");
  }
}
