import { createServer } from "node:http";

import { closeServer, listenInTestRange } from "./ports";

/** Tokens the stand-in understands; any other token is rejected like a forged one. */
export const CAPTCHA_TOKENS = { valid: "captcha-ok", broken: "captcha-breaks-siteverify" } as const;

export interface SiteverifyStandIn {
  url: string;
  /** The form fields of every verification request received. */
  requests: Array<Record<string, string>>;
  close(): Promise<void>;
}

/**
 * A local stand-in for Google's siteverify: answers `{ success: true }` for CAPTCHA_TOKENS.valid
 * when the secret matches, a 500 for CAPTCHA_TOKENS.broken, and `{ success: false }` otherwise.
 */
export async function startSiteverify(secret: string): Promise<SiteverifyStandIn> {
  const requests: SiteverifyStandIn["requests"] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      requests.push(form);
      if (form.response === CAPTCHA_TOKENS.broken) {
        response.writeHead(500).end("siteverify is down");
        return;
      }
      const success = form.secret === secret && form.response === CAPTCHA_TOKENS.valid;
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify(
          success ? { success } : { success, "error-codes": ["invalid-input-response"] },
        ),
      );
    });
  });
  const port = await listenInTestRange(server);
  return {
    url: `http://127.0.0.1:${port}/recaptcha/api/siteverify`,
    requests,
    close: () => closeServer(server),
  };
}
