/**
 * Issue 16, item 3: password spraying. One address trying a different e-mail each time is
 * stopped after LOGIN_FAILURES_PER_ADDRESS failures a minute (30 by default; 5 here), before
 * any more hashing, while a real login from another address still goes through.
 */
import { describe, expect, it } from "vitest";

import { DEMO, useSignedInApp } from "./support/app";

const suite = useSignedInApp({ LOGIN_FAILURES_PER_ADDRESS: "5" });

const login = (remoteAddress: string, payload: { email: string; password: string }) =>
  suite.app.inject({ method: "POST", url: "/v1/api/auth/login", remoteAddress, payload });

describe("failed logins per address", () => {
  it("answers 429 after the limit across e-mails, even for a right password, from that address only", async () => {
    const sprayer = "127.0.0.11";
    for (let i = 0; i < 5; i += 1) {
      const attempt = await login(sprayer, {
        email: `sprayed.${i}@wallet.example`,
        password: "Guess#2026",
      });
      expect(attempt.statusCode).toBe(401);
    }
    const stopped = await login(sprayer, {
      email: "another@wallet.example",
      password: "Guess#2026",
    });
    expect(stopped.statusCode).toBe(429);
    expect(stopped.json()).toMatchObject({
      code: "RATE_LIMITED",
      data: { retryAfterSeconds: expect.any(Number) },
    });
    expect((await login(sprayer, DEMO.superAdmin)).statusCode).toBe(429);
    expect((await login("127.0.0.12", DEMO.superAdmin)).statusCode).toBe(200);
  });

  it("believes no X-Forwarded-For without TRUST_PROXY: a spray cannot name new addresses", async () => {
    const sprayer = "127.0.0.14";
    const spoofed = (i: number) =>
      suite.app.inject({
        method: "POST",
        url: "/v1/api/auth/login",
        remoteAddress: sprayer,
        headers: { "x-forwarded-for": `198.51.100.${i}` },
        payload: { email: `spoofed.${i}@wallet.example`, password: "Guess#2026" },
      });
    for (let i = 0; i < 5; i += 1) expect((await spoofed(i)).statusCode).toBe(401);
    expect((await spoofed(5)).statusCode).toBe(429);
  });

  it("counts only failures: successful logins from a busy address never lock it", async () => {
    const desk = "127.0.0.13";
    for (let i = 0; i < 7; i += 1) {
      expect((await login(desk, DEMO.userDesk)).statusCode).toBe(200);
    }
  });
});
