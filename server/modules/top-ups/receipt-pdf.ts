/**
 * A counter top-up's receipt, or its reversal's, as an A5 PDF to print at the counter, drawn with
 * PDFKit as the settlement invoice is (server/modules/settlements/invoice-pdf.ts). Chinese needs a
 * font with its glyphs (INVOICE_FONT, see server/config.ts); without one the receipt is written
 * in English and characters Helvetica lacks become `?`.
 */
import type { Config } from "../../config";
import type { Language } from "../../http/language";
import { RECEIPT_TEXTS, receiptLines, type TopUpReceipt } from "../../mail/receipt-email";
import { openPdf, writtenLanguage } from "../../documents/pdf";
import { fill } from "../../documents/words";

export interface ReceiptPdfInput {
  receipt: TopUpReceipt;
  language: Language;
  timeZone: string;
  font: Config["invoiceFont"];
}

/** The receipt's PDF bytes: the same words and figures on every copy but the creation date. */
export async function receiptPdf(input: ReceiptPdfInput): Promise<Buffer> {
  const { receipt, timeZone, font } = input;
  const language = writtenLanguage(input.language, font);
  const t = RECEIPT_TEXTS[language];
  const { title, rows, reversed } = receiptLines(receipt, language, timeZone);
  const { doc, text, bytes } = openPdf({
    size: "A5",
    margin: 40,
    font,
    title: fill(t.documentTitle, { number: receipt.number }),
    author: t.issuer,
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const line = () => {
    const y = doc.y;
    doc
      .moveTo(left, y)
      .lineTo(left + width, y)
      .strokeColor("#cccccc")
      .stroke();
    doc.moveDown(0.6);
  };

  doc.fontSize(16).fillColor("#000000").text(text(t.issuer), left, 40);
  doc.fontSize(9).fillColor("#555555").text(text(t.issuerLine));
  doc.moveDown(1);
  doc.fontSize(14).fillColor("#000000").text(text(title));
  doc.moveDown(0.4);
  if (reversed) {
    doc.fontSize(14).fillColor("#b91c1c").text(text(reversed.stamp));
    doc.fontSize(10).text(text(reversed.line));
    doc.fillColor("#000000");
  }
  doc.moveDown(0.6);
  line();
  for (const [label, value] of rows) {
    const y = doc.y;
    doc
      .fontSize(9)
      .fillColor("#555555")
      .text(text(label), left, y, { width: width * 0.4 });
    doc
      .fontSize(11)
      .fillColor("#000000")
      .text(text(value), left + width * 0.4, y, { width: width * 0.6, align: "right" });
    doc.moveDown(0.5);
  }
  line();
  doc.fontSize(8).fillColor("#555555").text(text(t.footer), left, doc.y, { width });
  doc.end();
  return bytes;
}
