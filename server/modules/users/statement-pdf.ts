/**
 * A period of a wallet's statement as an A4 PDF, drawn with PDFKit as the invoice and the
 * receipts are, in the words the console's statement uses (locales/<lang>/statement.json).
 * Chinese needs a font with its glyphs (INVOICE_FONT, see server/config.ts); without one the
 * statement is written in English and characters Helvetica lacks become `?`.
 */
import enUS from "../../../locales/en-US/statement.json";
import cnZH from "../../../locales/cn-ZH/statement.json";
import type { LedgerChannel, LedgerStatus, LedgerType } from "../../../src/shared/domain";
import { formatRinggit } from "../../../src/shared/money";
import type { Config } from "../../config";
import type { Language } from "../../http/language";
import { openPdf, writtenLanguage } from "../../documents/pdf";
import { consoleDate, fill } from "../../documents/words";

const TEXTS: Record<Language, typeof enUS> = { "en-US": enUS, "cn-ZH": cnZH };

export interface StatementRow {
  createdAt: Date;
  reference: string;
  type: LedgerType;
  channel: LedgerChannel | null;
  status: LedgerStatus;
  businessName: string | null;
  amountSen: number;
  balanceAfterSen: number;
}

export interface Statement {
  holder: { name: string; accountNumber: string };
  /** Business days, both included. */
  from: string;
  to: string;
  /** The balance before the period's first row. */
  openingSen: number;
  /** Oldest first. */
  rows: readonly StatementRow[];
}

/** A row that moved the balance: a successful one, or a top-up reversed since (its reversal did). */
const moved = (row: StatementRow) => row.status === "success" || row.status === "reversed";

/** The period's money in and out (both positive) and the balance it closed on. */
export function statementTotals({ openingSen, rows }: Pick<Statement, "openingSen" | "rows">) {
  let inSen = 0;
  let outSen = 0;
  for (const row of rows.filter(moved)) {
    if (row.amountSen > 0) inSen += row.amountSen;
    else outSen -= row.amountSen;
  }
  return { inSen, outSen, closingSen: openingSen + inSen - outSen };
}

export interface StatementPdfInput {
  statement: Statement;
  language: Language;
  timeZone: string;
  font: Config["invoiceFont"];
}

/** What a row was, in the statement's words: its kind, and whose or which channel it was. */
function describe(row: StatementRow, t: (typeof TEXTS)[Language]): string {
  const kind = t.type[row.type];
  const detail = row.businessName ?? (row.channel ? t.channel[row.channel] : undefined);
  const what = detail ? `${kind} · ${detail}` : kind;
  return row.status === "success" ? what : `${what} (${t.status[row.status]})`;
}

/** The statement's PDF bytes. */
export async function statementPdf(input: StatementPdfInput): Promise<Buffer> {
  const { statement: s, timeZone, font } = input;
  const language = writtenLanguage(input.language, font);
  const t = TEXTS[language];
  const p = t.pdf;
  const { doc, text, bytes } = openPdf({
    size: "A4",
    margin: 48,
    font,
    title: fill(p.documentTitle, { account: s.holder.accountNumber, from: s.from, to: s.to }),
    author: p.issuer,
  });
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const bottom = doc.page.height - doc.page.margins.bottom;
  const { inSen, outSen, closingSen } = statementTotals(s);

  doc.fontSize(18).text(text(p.issuer), left, 48);
  doc.fontSize(9).fillColor("#555555").text(text(p.issuerLine));
  doc.fillColor("#000000").fontSize(15).text(text(p.title), left, 48, { width, align: "right" });
  doc.moveDown(2.2);

  const pair = (label: string, value: string, x: number, columnWidth: number) => {
    doc.fontSize(8).fillColor("#555555").text(text(label), x, doc.y, { width: columnWidth });
    doc.fontSize(10).fillColor("#000000").text(text(value), x, doc.y, { width: columnWidth });
    doc.moveDown(0.4);
  };
  const top = doc.y;
  const half = (width - 24) / 2;
  pair(p.holder, s.holder.name, left, half);
  pair(p.accountNumber, s.holder.accountNumber, left, half);
  const leftEnd = doc.y;
  doc.y = top;
  pair(
    p.period,
    fill(p.periodValue, { from: consoleDate(s.from, language), to: consoleDate(s.to, language) }),
    left + half + 24,
    half,
  );
  pair(p.timeZone, timeZone, left + half + 24, half);
  doc.y = Math.max(leftEnd, doc.y) + 8;

  // The figures of the period: opening, in, out, closing, side by side.
  const figures: Array<[string, string]> = [
    [p.opening, formatRinggit(s.openingSen)],
    [p.moneyIn, formatRinggit(inSen)],
    [p.moneyOut, formatRinggit(outSen)],
    [p.closing, formatRinggit(closingSen)],
  ];
  const figureTop = doc.y;
  const quarter = width / 4;
  figures.forEach(([label, value], i) => {
    doc
      .fontSize(8)
      .fillColor("#555555")
      .text(text(label), left + i * quarter, figureTop, { width: quarter - 8 });
    doc
      .fontSize(12)
      .fillColor("#000000")
      .text(value, left + i * quarter, figureTop + 12, { width: quarter - 8 });
  });
  doc.y = figureTop + 36;

  // The rows: date, reference, what, in, out, balance after.
  const columns = [
    { key: "date", width: 0.15, align: "left" },
    { key: "reference", width: 0.23, align: "left" },
    { key: "description", width: 0.26, align: "left" },
    { key: "moneyIn", width: 0.12, align: "right" },
    { key: "moneyOut", width: 0.12, align: "right" },
    { key: "balance", width: 0.12, align: "right" },
  ] as const;
  const rule = (y: number) =>
    doc
      .moveTo(left, y)
      .lineTo(left + width, y)
      .strokeColor("#cccccc")
      .stroke();
  const drawRow = (cells: readonly string[], size: number, colour: string) => {
    const y = doc.y;
    let x = left;
    let height = 0;
    columns.forEach((column, i) => {
      const cellWidth = column.width * width - 4;
      doc.fontSize(size).fillColor(colour);
      const cell = text(cells[i] ?? "");
      height = Math.max(height, doc.heightOfString(cell, { width: cellWidth }));
      doc.text(cell, x, y, { width: cellWidth, align: column.align });
      x += column.width * width;
    });
    doc.y = y + height + 4;
  };
  const header = () => {
    drawRow(
      columns.map((column) => p.columns[column.key]),
      8,
      "#555555",
    );
    rule(doc.y);
    doc.y += 4;
  };
  header();
  if (s.rows.length === 0) {
    doc.fontSize(10).fillColor("#555555").text(text(p.noRows), left, doc.y, { width });
  }
  for (const row of s.rows) {
    // A row that would cross the bottom margin starts a new page, under the header again.
    if (doc.y + 28 > bottom) {
      doc.addPage();
      doc.y = doc.page.margins.top;
      header();
    }
    const applied = moved(row);
    drawRow(
      [
        consoleDate(row.createdAt, language, { timeZone, withTime: true }),
        row.reference,
        describe(row, t),
        applied && row.amountSen > 0 ? formatRinggit(row.amountSen) : "",
        applied && row.amountSen < 0 ? formatRinggit(-row.amountSen) : "",
        formatRinggit(row.balanceAfterSen),
      ],
      8.5,
      applied ? "#000000" : "#777777",
    );
  }
  rule(doc.y);
  doc.moveDown(0.8);
  doc.fontSize(7.5).fillColor("#555555").text(text(p.footer), left, doc.y, { width });
  doc.end();
  return bytes;
}
