/**
 * Signing in to the API in tests: the demo's administrators, the header a token goes in, and a
 * login. Apart from support/app.ts so that support/four-eyes.ts (which app.ts's createAdmin
 * uses) can sign its checker in without importing app.ts back.
 */
import { expect } from "vitest";

import type { App } from "../../../server/app";
import type { AdminDto } from "../../../src/shared/schemas/administrators";

/** The seeded demo administrators (default passwords; tests run with a fixed environment). */
export const DEMO = {
  superAdmin: { email: "superadmin@wallet.example", password: "SuperAdmin#2026" },
  userDesk: { email: "userdesk@wallet.example", password: "UserDesk#2026" },
  finance: { email: "finance@wallet.example", password: "Finance#2026" },
  banned: { email: "banned@wallet.example", password: "Banned#2026" },
  approver: { email: "approver@wallet.example", password: "Approver#2026" },
  checker: { email: "checker@wallet.example", password: "Checker#2026" },
} as const;

export const auth = (token: string) => ({ authorization: token });

export async function login(
  app: App,
  credentials: { email: string; password: string },
): Promise<{ token: string; admin: AdminDto }> {
  const response = await app.inject({
    method: "POST",
    url: "/v1/api/auth/login",
    payload: credentials,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
