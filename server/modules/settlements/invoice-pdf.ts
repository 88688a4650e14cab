/**
 * A settlement's invoice as an A4 PDF (`GET /api/settlements/{id}/invoice.pdf`), drawn with
 * PDFKit from the same figures and the same words (locales/<lang>/invoice.json) as the console's
 * invoice page. Chinese needs a font with its glyphs (INVOICE_FONT, see server/config.ts);
 * without one the invoice is written in English and characters Helvetica lacks become `?`.
 */
import enUS from "../../../locales/en-US/invoice.json";
import cnZH from "../../../locales/cn-ZH/invoice.json";
import enSettlement from "../../../locales/en-US/settlement.json";
import cnSettlement from "../../../locales/cn-ZH/settlement.json";
import { formatRinggit } from "../../../src/shared/money";
import type { SettlementDto } from "../../../src/shared/modules/settlements";
import type { Config } from "../../config";
import type { Language } from "../../http/language";
import { openPdf, writtenLanguage } from "../../documents/pdf";
import { consoleDate, fill } from "../../documents/words";

type InvoiceTexts = typeof enUS;
const COUNT = new Intl.NumberFormat("en");
const TEXTS: Record<Language, InvoiceTexts> = { "en-US": enUS, "cn-ZH": cnZH };
const SETTLEMENT_TEXTS = { "en-US": enSettlement, "cn-ZH": cnSettlement } as const;

export interface InvoiceInput {
  settlement: SettlementDto;
  language: Language;
  timeZone: string;
  font: Config["invoiceFont"];
}

/** The invoice's PDF bytes. */
export async function invoicePdf(input: InvoiceInput): Promise<Buffer> {
  const { settlement: s, timeZone, font } = input;
  // Without a font for Chinese, the invoice speaks English.
  const language = writtenLanguage(input.language, font);
  const t = TEXTS[language];
  const status = SETTLEMENT_TEXTS[language].status;
  const { doc, text, bytes } = openPdf({
    size: "A4",
    margin: 56,
    font,
    title: fill(t.documentTitle, { number: s.invoiceNumber }),
    author: t.issuer,
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;

  doc.fontSize(20).text(text(t.issuer), left, 56);
  doc.fontSize(10).fillColor("#555555").text(text(t.issuerLine));
  doc.fillColor("#000000").fontSize(16).text(text(t.title), left, 56, { width, align: "right" });
  doc.fontSize(10).text(s.invoiceNumber, { width, align: "right" });
  doc.moveDown(3);

  const pairs = (rows: Array<[string, string]>, x: number, columnWidth: number) => {
    const top = doc.y;
    for (const [label, value] of rows) {
      doc.fontSize(9).fillColor("#555555").text(text(label), x, doc.y, { width: columnWidth });
      doc.fontSize(11).fillColor("#000000").text(text(value), x, doc.y, { width: columnWidth });
      doc.moveDown(0.6);
    }
    return doc.y - top;
  };
  const top = doc.y;
  const half = (width - 24) / 2;
  const leftHeight = pairs(
    [
      [t.billTo, s.businessName],
      [t.registrationNumber, s.businessRegistrationNumber],
      [t.bankAccount, `${s.bankName} ${s.bankAccount}`],
    ],
    left,
    half,
  );
  doc.y = top;
  const rightHeight = pairs(
    [
      [t.invoiceNumber, s.invoiceNumber],
      // Issued when the run made the settlement: the same date on every copy.
      [t.issueDate, consoleDate(s.createdAt, language, { timeZone })],
      [
        t.period,
        fill(t.periodValue, {
          start: consoleDate(s.periodStart, language),
          end: consoleDate(s.periodEnd, language),
        }),
      ],
      [t.status, status[s.status]],
    ],
    left + half + 24,
    half,
  );
  doc.y = top + Math.max(leftHeight, rightHeight) + 12;

  // The figures: label on the left, amount on the right, the net in bold type's place: larger.
  const line = (y: number) =>
    doc
      .moveTo(left, y)
      .lineTo(left + width, y)
      .strokeColor("#cccccc")
      .stroke();
  line(doc.y);
  doc.moveDown(0.8);
  const figure = (label: string, value: string, size = 11) => {
    const y = doc.y;
    doc
      .fontSize(size)
      .fillColor("#000000")
      .text(text(label), left, y, { width: width * 0.6 });
    doc.text(value, left + width * 0.6, y, { width: width * 0.4, align: "right" });
    doc.moveDown(0.5);
  };
  figure(t.paymentCount, COUNT.format(s.paymentCount));
  figure(t.grossSen, formatRinggit(s.grossSen));
  figure(`${t.refundSen} (${COUNT.format(s.refundCount)})`, formatRinggit(-s.refundSen));
  figure(t.feeSen, formatRinggit(-s.feeSen));
  line(doc.y);
  doc.moveDown(0.6);
  figure(t.netSen, formatRinggit(s.netSen), 14);
  line(doc.y);
  doc.moveDown(1.2);
  pairs(
    [
      [t.bankReference, s.bankReference ?? t.notPaid],
      [
        t.paidAt,
        s.paidAt ? consoleDate(s.paidAt, language, { timeZone, withTime: true }) : t.notPaid,
      ],
    ],
    left,
    width,
  );
  doc.moveDown(1);
  doc.fontSize(8).fillColor("#555555").text(text(t.feeNote), left, doc.y, { width });
  doc.end();
  return bytes;
}
