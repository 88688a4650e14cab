import type { FastifyRequest } from "fastify";

export type Language = "en-US" | "cn-ZH";

/**
 * The language of the console that made the request: `cn-ZH` (the product's tag) or any `zh`
 * tag in Accept-Language means Simplified Chinese; everything else English.
 */
export function requestLanguage(request: FastifyRequest): Language {
  const header = request.headers["accept-language"];
  const first = (Array.isArray(header) ? header[0] : header)?.split(",")[0]?.trim().toLowerCase();
  if (first && (first.startsWith("cn") || first.startsWith("zh"))) return "cn-ZH";
  return "en-US";
}

/** Texts the server itself shows to people (most texts live in the console's locales). */
export const SERVER_TEXTS = {
  wrongCredentials: {
    "en-US": "Incorrect e-mail or password.",
    "cn-ZH": "电子邮件或密码不正确。",
  },
} as const satisfies Record<string, Record<Language, string>>;
