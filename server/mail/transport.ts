import { randomBytes } from "node:crypto";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

import nodemailer from "nodemailer";

/** One e-mail with an HTML body and its plain-text alternative. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** "smtp" when SMTP_URL is set, otherwise "outbox" (.eml files in DATA_DIR/outbox). */
  readonly kind: "smtp" | "outbox";
  /** Resolves once the message is accepted by the SMTP server or written to the outbox. */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export interface MailerSettings {
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
}

/** A visitor waits for the answer, so a dead SMTP server must fail fast rather than hang. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/**
 * Sends over SMTP when SMTP_URL is set; otherwise writes each message as
 * `<timestamp>-<random>.eml` into DATA_DIR/outbox (directory 0700, files 0600: they hold people's
 * finances), so a fresh checkout can show the report without a mail server.
 */
export function createMailer(settings: MailerSettings): Mailer {
  // Base64 bodies keep the Chinese texts and long HTML lines intact through any relay.
  const defaults = { from: settings.from, textEncoding: "base64" as const };

  if (settings.smtpUrl) {
    const transport = nodemailer.createTransport(
      { url: settings.smtpUrl, ...SMTP_TIMEOUTS },
      defaults,
    );
    return {
      kind: "smtp",
      async send(mail) {
        await transport.sendMail(mail);
      },
      close: () => transport.close(),
    };
  }

  const outboxDir = join(settings.dataDir, "outbox");
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true }, defaults);
  return {
    kind: "outbox",
    async send(mail) {
      const info = await transport.sendMail(mail);
      await mkdir(outboxDir, { recursive: true, mode: 0o700 });
      await chmod(outboxDir, 0o700);
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const file = join(outboxDir, `${stamp}-${randomBytes(4).toString("hex")}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600, flag: "wx" });
    },
    close: () => transport.close(),
  };
}
