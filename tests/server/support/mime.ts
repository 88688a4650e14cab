/**
 * Just enough MIME reading for the tests to see an e-mail as its recipient would (mailparser is
 * not available here): headers with RFC 2047 encoded words, multipart bodies, and base64 or
 * quoted-printable transfer encodings, all UTF-8.
 */
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";

import { expect } from "vitest";

export interface ReadableMail {
  headers: Map<string, string>;
  subject: string;
  to: string;
  /** The text/plain part, decoded. */
  text: string;
  /** The text/html part, decoded. */
  html: string;
}

function splitHead(raw: string): { head: string; body: string } {
  const match = /\r?\n\r?\n/.exec(raw);
  if (!match) return { head: raw, body: "" };
  return { head: raw.slice(0, match.index), body: raw.slice(match.index + match[0].length) };
}

function parseHeaders(head: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0)
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function quotedPrintableBytes(text: string, underscoreIsSpace: boolean): Buffer {
  const bytes: number[] = [];
  const source = text.replace(/=\r?\n/g, "");
  for (let i = 0; i < source.length; i += 1) {
    const char = source[i] ?? "";
    const hex = source.slice(i + 1, i + 3);
    if (char === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else if (char === "_" && underscoreIsSpace) {
      bytes.push(0x20);
    } else {
      bytes.push(...Buffer.from(char, "utf8"));
    }
  }
  return Buffer.from(bytes);
}

/** `=?UTF-8?B?…?= =?UTF-8?B?…?=` → text; adjacent words are joined as bytes (a character may span two). */
export function decodeEncodedWords(value: string): string {
  return value.replace(/(?:=\?[^?]+\?[BbQq]\?[^?]*\?=\s*)+/g, (run) => {
    const words = [...run.matchAll(/=\?[^?]+\?([BbQq])\?([^?]*)\?=/g)];
    const bytes = words.map(([, kind, text = ""]) =>
      kind?.toUpperCase() === "B" ? Buffer.from(text, "base64") : quotedPrintableBytes(text, true),
    );
    return Buffer.concat(bytes).toString("utf8") + (/\s$/.test(run) ? " " : "");
  });
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch (encoding?.toLowerCase()) {
    case "base64":
      return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    case "quoted-printable":
      return quotedPrintableBytes(body, false).toString("utf8");
    default:
      return body;
  }
}

function leaves(raw: string): Array<{ type: string; content: string }> {
  const { head, body } = splitHead(raw);
  const headers = parseHeaders(head);
  const contentType = headers.get("content-type") ?? "text/plain";
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "text/plain";
  if (type.startsWith("multipart/")) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    if (!boundary) throw new Error(`multipart without a boundary: ${contentType}`);
    const sections = body.split(`--${boundary}`).slice(1);
    return sections
      .filter((section) => !section.startsWith("--"))
      .flatMap((section) => leaves(section.replace(/^\r?\n/, "")));
  }
  return [{ type, content: decodeBody(body, headers.get("content-transfer-encoding")) }];
}

/** Reads a raw RFC 5322 message (as received over SMTP or stored as .eml). */
export function readMail(raw: string): ReadableMail {
  const headers = parseHeaders(splitHead(raw).head);
  const parts = leaves(raw);
  return {
    headers,
    subject: decodeEncodedWords(headers.get("subject") ?? ""),
    to: decodeEncodedWords(headers.get("to") ?? ""),
    text: parts.find((part) => part.type === "text/plain")?.content ?? "",
    html: parts.find((part) => part.type === "text/html")?.content ?? "",
  };
}

/**
 * The one message the file mailer wrote to `outbox` (its `.eml` files), read and then removed so
 * the next test starts with an empty outbox. Fails when there is none, or more than one.
 */
export async function takeOnlyMail(outbox: string): Promise<ReadableMail> {
  const files = (await readdir(outbox)).filter((file) => file.endsWith(".eml"));
  expect(files).toHaveLength(1);
  const mail = readMail(await readFile(join(outbox, files[0]!), "utf8"));
  await rm(outbox, { recursive: true, force: true });
  return mail;
}
