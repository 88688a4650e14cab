/**
 * The demo businesses' documents (docs/modules.md, "Business"): a registration certificate (a
 * one-page PDF) and a bank letter (a PNG) each, made here in a few milliseconds, no library: so
 * the documents beside a business's decision are there on first start. One pending business
 * lacks its bank letter, to show what the page says of a missing document.
 */
import { randomBytes } from "node:crypto";
import { deflateSync } from "node:zlib";

import { asc } from "drizzle-orm";

import type { Tx } from "../db";
import { businessDocuments, businesses } from "../db/schema";

/** Text as a PDF string literal: printable ASCII only, the delimiters escaped. */
const pdfText = (text: string) =>
  `(${text.replace(/[^\x20-\x7e]/g, "?").replace(/[\\()]/g, (c) => `\\${c}`)})`;

/** A one-page A5 PDF with a title and a few lines of Helvetica, its cross-reference table exact. */
export function simplePdf(title: string, lines: readonly string[]): Buffer {
  const body = [
    "BT /F1 18 Tf 40 540 Td",
    `${pdfText(title)} Tj`,
    "/F1 11 Tf 0 -36 Td 16 TL",
    ...lines.map((line) => `${pdfText(line)} '`),
    "ET",
    "0.1 0.3 0.6 RG 2 w 40 500 m 380 500 l S",
  ].join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 595] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Length ${Buffer.byteLength(body, "latin1")} >>\nstream\n${body}\nendstream`,
  ];
  let pdf = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(pdf, "latin1"));
    pdf += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, "latin1");
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("");
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, "latin1");
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * A letter-like PNG (240 × 320, RGB): a coloured letterhead, grey bars where the lines of text
 * would be, and a signature's stroke. `seed` varies the lines from letter to letter.
 */
export function letterPng(colour: readonly [number, number, number], seed: number): Buffer {
  const width = 240;
  const height = 320;
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3, 0xff);
    row[0] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      let pixel: readonly [number, number, number] | undefined;
      if (y < 40) pixel = colour;
      else if (y >= 70 && y < 250 && (y - 70) % 16 < 6) {
        const line = Math.floor((y - 70) / 16);
        const end = 200 - ((seed * 37 + line * 53) % 90);
        if (x >= 20 && x < end) pixel = [190, 190, 196];
      } else if (y >= 270 && y < 290 && x >= 150 && x < 215) {
        const wave = Math.round(280 + 7 * Math.sin((x + seed) / 6));
        if (Math.abs(y - wave) < 2) pixel = [30, 40, 120];
      }
      if (pixel) row.set(pixel, 1 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const COLOURS = [
  [255, 204, 0],
  [200, 16, 46],
  [180, 20, 40],
  [0, 57, 166],
  [0, 70, 140],
] as const;

/** A document name as a merchant's phone would name it: letters, digits and hyphens. */
const fileStem = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** Every demo business's certificate and bank letter, one pending business without its letter. */
export async function seedDemoBusinessDocuments(tx: Tx): Promise<number> {
  const shops = await tx
    .select({
      id: businesses.id,
      name: businesses.name,
      status: businesses.status,
      registrationNumber: businesses.registrationNumber,
      bankName: businesses.bankName,
      createdAt: businesses.createdAt,
    })
    .from(businesses)
    .orderBy(asc(businesses.id));
  const withoutLetter = shops.filter((shop) => shop.status === "pending")[1]?.id;
  const rows: Array<typeof businessDocuments.$inferInsert> = [];
  shops.forEach((shop, i) => {
    const stem = fileStem(shop.name);
    const certificate = simplePdf("Certificate of Registration", [
      `Business name: ${shop.name}`,
      `Registration number: ${shop.registrationNumber}`,
      `Registered: ${shop.createdAt.toISOString().slice(0, 10)}`,
      "Companies Commission of Malaysia (demo document)",
    ]);
    rows.push({
      id: randomBytes(16).toString("hex"),
      businessId: shop.id,
      kind: "registration_certificate",
      fileName: `${stem}-registration.pdf`,
      contentType: "application/pdf",
      size: certificate.length,
      content: certificate,
      createdAt: shop.createdAt,
    });
    if (shop.id === withoutLetter) return;
    const letter = letterPng(COLOURS[i % COLOURS.length]!, i);
    rows.push({
      id: randomBytes(16).toString("hex"),
      businessId: shop.id,
      kind: "bank_letter",
      fileName: `${stem}-${fileStem(shop.bankName)}-letter.png`,
      contentType: "image/png",
      size: letter.length,
      content: letter,
      createdAt: shop.createdAt,
    });
  });
  if (rows.length > 0) await tx.insert(businessDocuments).values(rows);
  return rows.length;
}
