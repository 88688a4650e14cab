/**
 * Sends the report request to the reference server (`POST /v1/api/calculator/report`) and turns
 * every answer into an outcome the dialog can show. Not through the console's http client: it is
 * not part of this page, and one `fetch` is all it needs.
 */
import type { Language } from "../shared/language";
import type { FormTexts } from "./storage";

const API_BASE: string = (import.meta.env.VITE_API_URL as string | undefined) ?? "/v1";
export const REPORT_URL = `${API_BASE}/api/calculator/report`;

export interface ReportRequest {
  inputs: FormTexts;
  email: string;
  captchaToken: string | null;
  language: Language;
}

export type ReportOutcome =
  | { kind: "sent" }
  /** `field` is the first field the server named (`email`, a calculator field) when known. */
  | { kind: "validation"; field?: string }
  | { kind: "captchaFailed" }
  | { kind: "captchaUnavailable" }
  | { kind: "rateLimited" }
  | { kind: "mailFailed" }
  | { kind: "network" }
  | { kind: "unknown" };

interface ErrorBody {
  code?: unknown;
  data?: { issues?: { path?: unknown }[] };
}

/** The last named segment of an issue path: `["inputs", "others"]`, `"inputs.others"` → `others`. */
function fieldOf(path: unknown): string | undefined {
  const parts = Array.isArray(path) ? path : typeof path === "string" ? path.split(".") : [];
  const named = parts.filter((part): part is string => typeof part === "string" && part !== "");
  return named[named.length - 1];
}

export async function sendReport(request: ReportRequest): Promise<ReportOutcome> {
  let response: Response;
  try {
    // Absolute, so the same code runs where there is no page to resolve against (tests).
    response = await fetch(new URL(REPORT_URL, window.location.href), {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(request),
    });
  } catch {
    return { kind: "network" };
  }
  if (response.ok) return { kind: "sent" };

  const body = (await response.json().catch(() => ({}))) as ErrorBody;
  switch (body.code) {
    case "VALIDATION_ERROR": {
      const field = fieldOf(body.data?.issues?.[0]?.path);
      return field ? { kind: "validation", field } : { kind: "validation" };
    }
    case "CAPTCHA_FAILED":
      return { kind: "captchaFailed" };
    case "CAPTCHA_UNAVAILABLE":
      return { kind: "captchaUnavailable" };
    case "RATE_LIMITED":
      return { kind: "rateLimited" };
    case "MAIL_FAILED":
      return { kind: "mailFailed" };
  }
  if (response.status === 429) return { kind: "rateLimited" };
  if (response.status === 502) return { kind: "mailFailed" };
  return { kind: "unknown" };
}
