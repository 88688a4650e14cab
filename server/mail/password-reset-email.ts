import type { OutgoingMail } from "./transport";
import { escapeHtml } from "./report-html";

/**
 * The e-mail a wallet user gets when staff reset their password: the one-time link and when it
 * expires. English only: the users table keeps no language preference yet.
 */
export function renderPasswordResetEmail(
  to: string,
  name: string,
  link: string,
  expiresAt: Date,
): OutgoingMail {
  const expires = `${expiresAt.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const text = [
    `Hello ${name},`,
    "",
    "UCSI Wallet support has started a password reset for your account.",
    "Open this link to choose a new password (it works once, until " + expires + "):",
    "",
    link,
    "",
    "If you did not ask for this, ignore this e-mail: your password stays as it is.",
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#111827">
<p>Hello ${escapeHtml(name)},</p>
<p>UCSI Wallet support has started a password reset for your account.</p>
<p><a href="${escapeHtml(link)}">Choose a new password</a> (the link works once, until ${escapeHtml(expires)}).</p>
<p style="color:#4b5563">If you did not ask for this, ignore this e-mail: your password stays as it is.</p>
</body></html>`;
  return { to, subject: "Reset your UCSI Wallet password", text, html };
}
