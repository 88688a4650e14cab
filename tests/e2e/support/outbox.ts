import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { readMail } from "../../server/support/mime";

/** The newest e-mail to `to` a started server wrote to its outbox (no SMTP_URL: mail goes there). */
export function newestMailTo(dataDir: string, to: string) {
  const outbox = join(dataDir, "outbox");
  const mails = readdirSync(outbox)
    .filter((file) => file.endsWith(".eml"))
    .sort()
    .map((file) => readMail(readFileSync(join(outbox, file), "utf8")))
    .filter((mail) => mail.to === to);
  const mail = mails.at(-1);
  if (!mail) throw new Error(`no mail to ${to} in ${outbox}`);
  return mail;
}

/** The path and query of the reset link in the newest e-mail to `to`. */
export function resetLinkPath(dataDir: string, to: string): string {
  const link = /https?:\/\/\S+\/reset-password\?token=[\w-]+/.exec(newestMailTo(dataDir, to).text);
  if (!link) throw new Error(`the newest mail to ${to} has no reset link`);
  const url = new URL(link[0]);
  return url.pathname + url.search;
}
