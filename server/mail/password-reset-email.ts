import type { FastifyBaseLogger } from "fastify";

import { HttpError } from "../errors";
import type { Mailer, OutgoingMail } from "./transport";
import { escapeHtml } from "./report-html";

/**
 * Whose password a link resets: a wallet user's (the public `/reset-password` page) or an
 * administrator's (the console's `/login/reset-password`). Each page spends only its own links.
 */
export type ResetAudience = "wallet" | "staff";

export const RESET_PAGE_PATH: Record<ResetAudience, string> = {
  wallet: "/reset-password",
  staff: "/login/reset-password",
};

const WORDING: Record<ResetAudience, { started: string; subject: string }> = {
  wallet: {
    started: "UCSI Wallet support has started a password reset for your account.",
    subject: "Reset your UCSI Wallet password",
  },
  staff: {
    started:
      "An administrator of the UCSI Wallet back office has started a password reset for your console account.",
    subject: "Reset your UCSI Wallet console password",
  },
};

export const RESET_MAIL_FAILED_MESSAGE = "The reset e-mail could not be sent, please try again";

/**
 * The e-mail a wallet user or an administrator gets when staff reset their password: the one-time
 * link and when it expires. English only: the users table keeps no language preference yet.
 */
export function renderPasswordResetEmail(
  audience: ResetAudience,
  to: string,
  name: string,
  link: string,
  expiresAt: Date,
): OutgoingMail {
  const { started, subject } = WORDING[audience];
  const expires = `${expiresAt.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const text = [
    `Hello ${name},`,
    "",
    started,
    "Open this link to choose a new password (it works once, until " + expires + "):",
    "",
    link,
    "",
    "If you did not ask for this, ignore this e-mail: your password stays as it is.",
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#111827">
<p>Hello ${escapeHtml(name)},</p>
<p>${escapeHtml(started)}</p>
<p><a href="${escapeHtml(link)}">Choose a new password</a> (the link works once, until ${escapeHtml(expires)}).</p>
<p style="color:#4b5563">If you did not ask for this, ignore this e-mail: your password stays as it is.</p>
</body></html>`;
  return { to, subject, text, html };
}

export interface ResetLinkMail {
  audience: ResetAudience;
  to: string;
  name: string;
  /** The link's token, returned once by the issuing service; never logged. */
  token: string;
  expiresAt: Date;
}

/**
 * E-mails a reset link under the site's configured public address, never one taken from the
 * request (a forged Host header would otherwise point the link at the attacker's site, issue 30).
 * A mail that cannot be sent is a 502 MAIL_FAILED; the issued link stays valid. Answers what the
 * issuing routes answer with 202.
 */
export async function sendResetLink(
  mailer: Mailer,
  publicUrl: string,
  log: FastifyBaseLogger,
  mail: ResetLinkMail,
): Promise<{ status: "sent"; expires_at: string }> {
  const link = `${publicUrl}${RESET_PAGE_PATH[mail.audience]}?token=${encodeURIComponent(mail.token)}`;
  try {
    await mailer.send(
      renderPasswordResetEmail(mail.audience, mail.to, mail.name, link, mail.expiresAt),
    );
  } catch (error) {
    const { code, responseCode } = (error ?? {}) as Record<string, unknown>;
    log.error(
      { event: `${mail.audience}.reset_password`, code, responseCode },
      "reset mail not sent",
    );
    throw new HttpError(502, RESET_MAIL_FAILED_MESSAGE, "MAIL_FAILED");
  }
  return { status: "sent", expires_at: mail.expiresAt.toISOString() };
}
