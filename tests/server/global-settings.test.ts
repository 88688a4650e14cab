/**
 * Global (issue 14) through HTTP on a real database: the settings read and changed (only what
 * changed is written, audited old → new), the support e-mail shown to a banned administrator at
 * login, the app config served without a session, bad input refused with nothing changed; and
 * the administrator's theme kept on the server.
 */
import { and, desc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { administrators, auditLog, changeRequests, globalSettings } from "../../server/db/schema";
import { CHANGE_REASON_HEADER } from "../../src/shared/kit/four-eyes";
import { auth, createAdmin, DEMO, login } from "./support/app";
import { approve, checkerToken } from "./support/four-eyes";
import {
  call,
  callApproved,
  expectError,
  expectNoPermission,
  useUserDeskSuite,
} from "./support/user-fixtures";

const suite = useUserDeskSuite();
let staff = "";

beforeAll(async () => {
  const superToken = (await login(suite.app, DEMO.superAdmin)).token;
  staff = (await createAdmin(suite.app, superToken, [20])).token;
}, 60_000);

const read = async () => (await call(suite.app, staff, "GET", "/api/global-settings")).json();
/** A change, approved by a second administrator holding Global (four eyes). */
const change = (body: unknown) =>
  callApproved(suite.app, staff, "PATCH", "/api/global-settings", body);

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

describe("Global settings under four eyes", () => {
  const patch = (token: string, body: unknown, reason?: string) =>
    suite.app.inject({
      method: "PATCH",
      url: "/v1/api/global-settings",
      headers: {
        ...auth(token),
        ...(reason === undefined ? {} : { [CHANGE_REASON_HEADER]: encodeURIComponent(reason) }),
      },
      payload: body as Record<string, unknown>,
    });
  const requestOf = async (id: number) =>
    (await suite.db.select().from(changeRequests).where(eq(changeRequests.id, id)))[0]!;

  it("waits for a second holder of Global: 202, nothing changed, old → new for the checker", async () => {
    const before = await read();
    const entry = await lastAudit();
    const made = await patch(staff, { minIosVersion: "9.1.0" }, "Force the security fix");
    expect(made.statusCode, made.body).toBe(202);
    const { changeRequest } = made.json<{ changeRequest: { id: number; reference: string } }>();
    expect(changeRequest.reference).toMatch(/^CR\d{8}[A-Z0-9]{10}$/);
    expect(await read()).toEqual(before);
    expect(await lastAudit()).toEqual(entry);
    expect(await requestOf(changeRequest.id)).toMatchObject({
      module: "global-settings",
      action: "update",
      recordId: null,
      reason: "Force the security fix",
      before: { minIosVersion: before.minIosVersion },
      after: { minIosVersion: "9.1.0" },
      permission: 20,
      status: "pending",
    });

    // One at a time: a second change waits for the first to be decided.
    expectError(await patch(staff, { minAndroidVersion: "9.1.0" }, "Also"), 409, "CHANGE_PENDING");
    // Never its maker; never someone without Global.
    expectError(await approve(suite.app, staff, changeRequest.id), 403, "SELF_APPROVAL");
    expectError(await approve(suite.app, suite.finance, changeRequest.id), 403, "NOT_A_CHECKER");

    const checker = await checkerToken(suite.app);
    const approved = await approve(suite.app, checker, changeRequest.id);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await read()).toMatchObject({ minIosVersion: "9.1.0" });
    const [approverRow] = await suite.db
      .select({ id: administrators.id })
      .from(administrators)
      .where(eq(administrators.email, DEMO.approver.email));
    expect(await lastAudit()).toMatchObject({
      action: "global_settings.update",
      before: { minIosVersion: before.minIosVersion },
      after: { minIosVersion: "9.1.0" },
      approvedBy: approverRow!.id,
    });
  });

  it("refuses the approval when a setting it changes moved since (409), changing nothing", async () => {
    const made = await patch(staff, { defaultFeeRateBp: 150 }, "New merchants at 1.5%");
    expect(made.statusCode, made.body).toBe(202);
    const { changeRequest } = made.json<{ changeRequest: { id: number } }>();
    // Another instance's write, or a restore, moves the setting meanwhile.
    await suite.db
      .insert(globalSettings)
      .values({ key: "defaultFeeRateBp", value: 90 })
      .onConflictDoUpdate({ target: globalSettings.key, set: { value: 90 } });
    const refused = await approve(suite.app, await checkerToken(suite.app), changeRequest.id);
    expectError(refused, 409, "RECORD_CHANGED");
    expect((await read()).defaultFeeRateBp).toBe(90);
    expect(await requestOf(changeRequest.id)).toMatchObject({
      status: "pending",
      failureCode: "RECORD_CHANGED",
    });
    expect(
      (
        await suite.app.inject({
          method: "POST",
          url: `/v1/api/change-requests/${changeRequest.id}/withdraw`,
          headers: auth(staff),
          payload: { remark: "Asked again" },
        })
      ).statusCode,
    ).toBe(200);
  });

  it("needs a reason, stores nothing without one, and a change of nothing is no request", async () => {
    const count = async () =>
      (
        await suite.db
          .select()
          .from(changeRequests)
          .where(eq(changeRequests.module, "global-settings"))
      ).length;
    const requests = await count();
    expectError(await patch(staff, { minIosVersion: "9.2.0" }), 400, "REASON_REQUIRED");
    expectError(await patch(staff, { minIosVersion: "9.2.0" }, " \u0007 "), 400, "REASON_INVALID");
    const current = await read();
    const same = await patch(staff, { minIosVersion: current.minIosVersion }, "Nothing");
    expect(same.statusCode, same.body).toBe(200);
    expect(await count()).toBe(requests);
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
