/**
 * A printed document (a settlement's invoice, a top-up's receipt) as PDFKit draws it, collected
 * into bytes. Chinese is drawn in INVOICE_FONT when there is one (server/config.ts); without it a
 * document speaks English and characters Helvetica lacks become `?`.
 */
import PDFDocument from "pdfkit";

import type { Config } from "../config";
import type { Language } from "../http/language";

/** Helvetica (WinAnsi) shows Latin-1 and a few more; anything else prints as `?`. */
const latin = (text: string) => text.replace(/[^\u0020-\u00ff\u2013\u2014\u2022\u2026]/g, "?");

/** The language a document is written in: English when there is no font for Chinese. */
export const writtenLanguage = (language: Language, font: Config["invoiceFont"]): Language =>
  font ? language : "en-US";

/**
 * A new document of `size` (write it in `writtenLanguage`): the document, `text` to pass every
 * string through, and its bytes once it is ended.
 */
export function openPdf(options: {
  size: "A4" | "A5";
  margin: number;
  font: Config["invoiceFont"];
  title: string;
  author: string;
}) {
  const { font } = options;
  const text = font ? (value: string) => value : latin;
  const doc = new PDFDocument({
    size: options.size,
    margin: options.margin,
    info: { Title: text(options.title), Author: text(options.author), CreationDate: new Date() },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const bytes = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  if (font) doc.registerFont("body", font.path, font.face);
  doc.font(font ? "body" : "Helvetica");
  return { doc, text, bytes };
}
