/**
 * Global (issue 14) through HTTP on a real database: the settings read and changed (only what
 * changed is written, audited old → new), the support e-mail shown to a banned administrator at
 * login, the app config served without a session, bad input refused with nothing changed; and
 * the administrator's theme kept on the server.
 */
import { and, desc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { auditLog } from "../../server/db/schema";
import { createAdmin, DEMO, login } from "./support/app";
import { call, expectError, expectNoPermission, useUserDeskSuite } from "./support/user-fixtures";

const suite = useUserDeskSuite();
let staff = "";

beforeAll(async () => {
  const superToken = (await login(suite.app, DEMO.superAdmin)).token;
  staff = (await createAdmin(suite.app, superToken, [20])).token;
}, 60_000);

const read = async () => (await call(suite.app, staff, "GET", "/api/global-settings")).json();
const change = (body: unknown) => call(suite.app, staff, "PATCH", "/api/global-settings", body);

async function lastAudit() {
  const [entry] = await suite.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetTable, "global_settings"), eq(auditLog.targetId, "global")))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return entry;
}

describe("Global settings", () => {
  it("reads every setting with its default and the support contact's fallback", async () => {
    expect(await read()).toMatchObject({
      maintenanceEnabled: false,
      minIosVersion: "1.0.0",
      minAndroidVersion: "1.0.0",
      defaultFeeRateBp: 0,
      supportEmailFallback: "superadmin@wallet.example",
    });
  });

  it("changes only what differs, audited old → new, and the banned dialog's contact follows", async () => {
    const before = await read();
    const response = await change({
      supportEmail: "parking.desk@ucsi.example",
      minIosVersion: "2.4.0",
      minAndroidVersion: before.minAndroidVersion,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      supportEmail: "parking.desk@ucsi.example",
      minIosVersion: "2.4.0",
    });
    expect(await lastAudit()).toMatchObject({
      action: "global_settings.update",
      before: { supportEmail: before.supportEmail, minIosVersion: "1.0.0" },
      after: { supportEmail: "parking.desk@ucsi.example", minIosVersion: "2.4.0" },
    });
    const banned = await suite.app.inject({
      method: "POST",
      url: "/v1/api/auth/login",
      payload: DEMO.banned,
    });
    expect(banned.json()).toMatchObject({
      message: "User is banned from login.",
      data: { email: "parking.desk@ucsi.example" },
    });
    // Cleared, the contact falls back to the environment's or the super administrator's.
    await change({ supportEmail: null });
    const again = await suite.app.inject({
      method: "POST",
      url: "/v1/api/auth/login",
      payload: DEMO.banned,
    });
    expect(again.json()).toMatchObject({ data: { email: "superadmin@wallet.example" } });
  });

  it("serves maintenance and minimum versions without a session", async () => {
    expect(
      (
        await change({
          maintenanceEnabled: true,
          maintenanceMessageEn: "Back at 6 am",
          maintenanceMessageZh: "早上 6 点恢复",
          minAndroidVersion: "3.0.1",
        })
      ).statusCode,
    ).toBe(200);
    const response = await suite.app.inject({ method: "GET", url: "/v1/api/public/app-config" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      maintenance: {
        enabled: true,
        message: { "en-US": "Back at 6 am", "cn-ZH": "早上 6 点恢复" },
      },
      minimumVersions: { ios: expect.any(String), android: "3.0.1" },
    });
    await change({ maintenanceEnabled: false });
  });

  it.each([
    ["an invalid e-mail", { supportEmail: "not-an-email" }, "VALIDATION_ERROR"],
    ["a version without its patch", { minIosVersion: "2.4" }, "VALIDATION_ERROR"],
    ["a version with letters", { minAndroidVersion: "2.4.0-beta" }, "VALIDATION_ERROR"],
    ["a fee rate above 100%", { defaultFeeRateBp: 10_001 }, "VALIDATION_ERROR"],
    ["a control character", { maintenanceMessageEn: "Down\u0000" }, "VALIDATION_ERROR"],
    ["an unknown setting", { theme: "dark" }, "VALIDATION_ERROR"],
    ["nothing", {}, "VALIDATION_ERROR"],
    [
      "maintenance without its English message",
      { maintenanceEnabled: true, maintenanceMessageEn: "  " },
      "MAINTENANCE_MESSAGE_REQUIRED",
    ],
  ])("refuses %s, changing nothing", async (_what, body, code) => {
    const before = await read();
    const entry = await lastAudit();
    expectError(await change(body), 400, code);
    expect(await read()).toEqual(before);
    expect(await lastAudit()).toEqual(entry);
  });

  it("refuses administrators without Global (20); the app config needs no session", async () => {
    expectNoPermission(
      await call(suite.app, suite.finance, "GET", "/api/global-settings"),
      "GET",
      "Global Settings",
    );
    expect(
      (await suite.app.inject({ method: "GET", url: "/v1/api/global-settings" })).statusCode,
    ).toBe(401);
  });
});

describe("the administrator's theme", () => {
  it("is kept on the server, audited, and refused when unknown", async () => {
    const saved = await call(suite.app, staff, "PATCH", "/api/account/admin", { theme: "dark" });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ theme: "dark" });
    expect((await call(suite.app, staff, "GET", "/api/account/admin")).json()).toMatchObject({
      theme: "dark",
    });
    expectError(
      await call(suite.app, staff, "PATCH", "/api/account/admin", { theme: "neon" }),
      400,
      "VALIDATION_ERROR",
    );
  });
});
