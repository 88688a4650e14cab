/**
 * The words of what the server writes for people to read (a settlement's invoice, a top-up's
 * receipt, its e-mail): `{{name}}` placeholders filled as i18next fills them, and dates as the
 * console shows them.
 */
import type { FastifyRequest } from "fastify";

import { ADMIN_LANGUAGES } from "../../src/shared/domain";
import { currentAdmin } from "../auth/access";
import { requestLanguage, type Language } from "../http/language";

/** `{{name}}` placeholders filled, as i18next does for the console. */
export const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key] ?? ""));

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** The day, and the hour and minute, of `date` in `timeZone`, as numbers. */
function partsOf(date: Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(date);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return {
    year: part("year"),
    month: Number(part("month")),
    day: Number(part("day")),
    time: `${part("hour")}:${part("minute")}`,
  };
}

/**
 * A date as the console shows it (src/app/format.ts): "27 Nov 2026" in English, "2026年11月27日"
 * in Chinese; a day (`YYYY-MM-DD`) as it is, an instant in `timeZone`, with its time if asked.
 */
export function consoleDate(
  at: string | Date,
  language: Language,
  { timeZone = "UTC", withTime = false }: { timeZone?: string; withTime?: boolean } = {},
) {
  const { year, month, day, time } = partsOf(new Date(at), timeZone);
  const date =
    language === "cn-ZH"
      ? `${year}年${month}月${day}日`
      : `${String(day).padStart(2, "0")} ${MONTHS[month - 1]} ${year}`;
  return withTime ? `${date} ${time}` : date;
}

const isLanguage = (tag: string | null | undefined): tag is Language =>
  (ADMIN_LANGUAGES as readonly string[]).includes(tag ?? "");

/**
 * The language of a document a console asks for (an invoice, a receipt, a statement): `lang` when
 * the console speaks it, else the administrator's own, else the request's.
 */
export function documentLanguage(request: FastifyRequest, lang: string | undefined): Language {
  if (isLanguage(lang)) return lang;
  const own = currentAdmin(request).language;
  return isLanguage(own) ? own : requestLanguage(request);
}
