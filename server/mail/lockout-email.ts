import type { OutgoingMail } from "./transport";
import { escapeHtml } from "./report-html";

type Language = "en-US" | "cn-ZH";

const WORDING: Record<Language, (minutes: number, address: string) => string[]> = {
  "en-US": (minutes, address) => [
    `Your UCSI Wallet console account was locked for ${minutes} minutes after too many failed sign-ins (the last from ${address}).`,
    "If it was you, wait and sign in again, or ask another administrator to reset your password.",
    "If it was not you, tell your security contact: someone is guessing your password. Your account is safe while it is locked.",
  ],
  "cn-ZH": (minutes, address) => [
    `由于多次登录失败（最近一次来自 ${address}），您的 UCSI 钱包后台账户已被锁定 ${minutes} 分钟。`,
    "如果是您本人，请稍后再登录，或请其他管理员为您重置密码。",
    "如果不是您本人，请告知您的安全联系人：有人正在猜测您的密码。账户锁定期间是安全的。",
  ],
};

const SUBJECT: Record<Language, string> = {
  "en-US": "Your UCSI Wallet console account was locked",
  "cn-ZH": "您的 UCSI 钱包后台账户已被锁定",
};

const GREETING: Record<Language, (name: string) => string> = {
  "en-US": (name) => `Hello ${name},`,
  "cn-ZH": (name) => `${name}，您好：`,
};

/** The e-mail an administrator gets when failed sign-ins lock their account, in their language. */
export function renderLockoutEmail(
  admin: { email: string; name: string; language: string | null },
  minutes: number,
  address: string,
): OutgoingMail {
  const language: Language = admin.language === "cn-ZH" ? "cn-ZH" : "en-US";
  const lines = WORDING[language](minutes, address);
  const greeting = GREETING[language](admin.name);
  return {
    to: admin.email,
    subject: SUBJECT[language],
    text: [greeting, "", ...lines].join("\n"),
    html: `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#111827">
<p>${escapeHtml(greeting)}</p>
${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("\n")}
</body></html>`,
  };
}
