import type { FastifyBaseLogger } from "fastify";

import { HttpError } from "../errors";

/** How long siteverify may take before the report is refused as unverifiable. */
const VERIFY_TIMEOUT_MS = 5_000;

export interface CaptchaSettings {
  /** The reCAPTCHA secret; undefined means the captcha is not checked (development, opt-out). */
  secret: string | undefined;
  /** Google's siteverify, or a stand-in. */
  verifyUrl: string;
}

export const CAPTCHA_MESSAGES = {
  missing: "Invalid captchaToken: the captcha is required",
  rejected: "The captcha was not accepted, please try again",
  unavailable: "The captcha could not be verified right now, please try again later",
} as const;

/** The part of siteverify's answer we rely on (https://developers.google.com/recaptcha/docs/verify). */
interface SiteverifyAnswer {
  success?: unknown;
}

/**
 * Checks a visitor's reCAPTCHA token with siteverify. Throws 400 CAPTCHA_FAILED when the token is
 * missing or rejected, and 503 CAPTCHA_UNAVAILABLE when siteverify cannot be asked or answers
 * nonsense: the report is never sent unverified, and the visitor learns it is not their fault.
 */
export async function verifyCaptcha(
  settings: CaptchaSettings,
  token: string | null,
  remoteIp: string,
  log: FastifyBaseLogger,
): Promise<void> {
  if (settings.secret === undefined) return;
  if (!token) {
    throw new HttpError(400, CAPTCHA_MESSAGES.missing, "CAPTCHA_FAILED", {
      issues: [{ path: "captchaToken", message: "The captcha is required" }],
    });
  }

  let answer: SiteverifyAnswer;
  try {
    const response = await fetch(settings.verifyUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ secret: settings.secret, response: token, remoteip: remoteIp }),
      signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`siteverify answered HTTP ${response.status}`);
    answer = (await response.json()) as SiteverifyAnswer;
  } catch (error) {
    log.warn({ err: error }, "captcha verification unavailable");
    throw new HttpError(503, CAPTCHA_MESSAGES.unavailable, "CAPTCHA_UNAVAILABLE");
  }
  if (answer.success !== true) {
    throw new HttpError(400, CAPTCHA_MESSAGES.rejected, "CAPTCHA_FAILED");
  }
}
