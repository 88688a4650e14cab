/**
 * Four eyes turned off and on (issue 32) through HTTP on a real database: the wallet policy lists
 * the declared changes it applies at once; that list is itself a policy change, so turning four
 * eyes off waits for a second approver; a money movement can never be turned off in production,
 * nor the policy's own versions anywhere; and an approval is refused when its maker may no longer
 * make the change (disabled, or a code lost).
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { DECLARED_MODULES } from "../../server/kit/declared";
import { changeRequests } from "../../server/db/schema";
import { FOUR_EYES_SWITCHABLE } from "../../src/shared/modules/wallet-policies";
import { auth, createAdmin, DEMO, login, productionApp } from "./support/app";
import { A_REASON, approve, checkerToken } from "./support/four-eyes";
import { call, callApproved, expectError, useUserDeskSuite } from "./support/user-fixtures";

const suite = useUserDeskSuite();
let superAdmin = "";

beforeAll(async () => {
  superAdmin = (await login(suite.app, DEMO.superAdmin)).token;
}, 60_000);

/** The policy in force with `change` on top, as a new version's body. */
async function policyWith(token: string, change: Record<string, unknown>) {
  const current = (await call(suite.app, token, "GET", "/api/wallet-policy")).json<
    Record<string, unknown>
  >();
  const keys = [
    "minTopUpSen",
    "maxTopUpSen",
    "dailyTopUpLimitSen",
    "maxBalanceSen",
    "dailyPaymentLimitSen",
    "dormancyDays",
  ];
  return { ...Object.fromEntries(keys.map((key) => [key, current[key]])), ...change };
}

const newVersion = async (token: string, change: Record<string, unknown>) =>
  suite.app.inject({
    method: "POST",
    url: "/v1/api/wallet-policies",
    headers: { ...auth(token), ...A_REASON },
    payload: await policyWith(token, change),
  });

const withdraw = async (token: string, id: number) => {
  const response = await suite.app.inject({
    method: "POST",
    url: `/v1/api/change-requests/${id}/withdraw`,
    headers: auth(token),
    payload: { remark: "Not needed any more" },
  });
  expect(response.statusCode, response.body).toBe(200);
};

const changePermissions = (token: string, id: number, permissions: number[]) =>
  suite.app.inject({
    method: "PATCH",
    url: `/v1/api/administrators/${id}/permissions`,
    headers: { ...auth(token), ...A_REASON },
    payload: { permissions },
  });

describe("what a policy may turn four eyes off for", () => {
  it("names every declared change that needs a second approver but the policy's own", () => {
    const declared = DECLARED_MODULES.flatMap((module) => [
      ...(["create", "edit"] as const).flatMap((form) =>
        module[form]?.fourEyes ? [`${module.name}.${form}`] : [],
      ),
      ...Object.entries(module.actions).flatMap(([name, action]) =>
        action.fourEyes ? [`${module.name}.${name}`] : [],
      ),
    ]);
    expect([...FOUR_EYES_SWITCHABLE].sort()).toEqual(
      [
        ...declared.filter((key) => key !== "wallet-policies.create"),
        "global-settings.update",
      ].sort(),
    );
  });

  it("is a policy change: waits for a second approver, then the change applies at once", async () => {
    const target = await createAdmin(suite.app, superAdmin, [8]);
    // With four eyes on, a permission change waits.
    const held = await changePermissions(superAdmin, target.admin.id, [8, 12]);
    expect(held.statusCode, held.body).toBe(202);
    await withdraw(superAdmin, held.json<{ changeRequest: { id: number } }>().changeRequest.id);

    // Turning it off is itself a change request, and changes nothing until approved.
    const off = await newVersion(superAdmin, { fourEyesOff: ["administrators.permissions"] });
    expect(off.statusCode, off.body).toBe(202);
    const stillHeld = await changePermissions(superAdmin, target.admin.id, [8, 12]);
    expect(stillHeld.statusCode, stillHeld.body).toBe(202);
    await withdraw(
      superAdmin,
      stillHeld.json<{ changeRequest: { id: number } }>().changeRequest.id,
    );
    const checker = await checkerToken(suite.app);
    const approved = await approve(
      suite.app,
      checker,
      off.json<{ changeRequest: { id: number } }>().changeRequest.id,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await call(suite.app, superAdmin, "GET", "/api/wallet-policy")).json()).toMatchObject({
      fourEyesOff: ["administrators.permissions"],
    });

    // Off: applied at once (200), no request made; other changes still wait.
    const requestsBefore = await suite.db.select().from(changeRequests);
    const direct = await changePermissions(superAdmin, target.admin.id, [8, 12]);
    expect(direct.statusCode, direct.body).toBe(200);
    expect(direct.json()).toMatchObject({ permissions: [8, 12] });
    expect(await suite.db.select().from(changeRequests)).toHaveLength(requestsBefore.length);
    const settings = await suite.app.inject({
      method: "PATCH",
      url: "/v1/api/global-settings",
      headers: { ...auth(superAdmin), ...A_REASON },
      payload: { minIosVersion: "7.0.0" },
    });
    expect(settings.statusCode, settings.body).toBe(202);
    await withdraw(superAdmin, settings.json<{ changeRequest: { id: number } }>().changeRequest.id);

    // A version that leaves the list out keeps it; an empty list turns four eyes on again.
    const kept = await callApproved(
      suite.app,
      superAdmin,
      "POST",
      "/api/wallet-policies",
      await policyWith(superAdmin, { dormancyDays: 200 }),
    );
    expect(kept.statusCode, kept.body).toBe(201);
    expect(kept.json()).toMatchObject({ fourEyesOff: ["administrators.permissions"] });
    const on = await callApproved(
      suite.app,
      superAdmin,
      "POST",
      "/api/wallet-policies",
      await policyWith(superAdmin, { fourEyesOff: [] }),
    );
    expect(on.json()).toMatchObject({ fourEyesOff: [] });
    expect((await changePermissions(superAdmin, target.admin.id, [8])).statusCode).toBe(202);
  });

  it.each([
    ["the policy's own versions", ["wallet-policies.create"]],
    ["an unknown change", ["users.ban"]],
    ["a change twice", ["administrators.permissions", "administrators.permissions"]],
    ["not a list", "administrators.permissions"],
  ])("refuses %s (400), storing nothing", async (_what, fourEyesOff) => {
    const before = await suite.db.select().from(changeRequests);
    expectError(await newVersion(superAdmin, { fourEyesOff }), 400, "VALIDATION_ERROR");
    expect(await suite.db.select().from(changeRequests)).toHaveLength(before.length);
  });
});

describe("the maker at approval", () => {
  /** A change of the settings by `maker`, waiting for a second approver: its request's id. */
  async function settingsRequest(maker: string, minAndroidVersion: string) {
    const made = await suite.app.inject({
      method: "PATCH",
      url: "/v1/api/global-settings",
      headers: { ...auth(maker), ...A_REASON },
      payload: { minAndroidVersion },
    });
    expect(made.statusCode, made.body).toBe(202);
    return made.json<{ changeRequest: { id: number } }>().changeRequest.id;
  }

  /** The approval refused (409 MAKER_NOT_ALLOWED), the request kept pending, nothing changed. */
  async function expectMakerRefused(id: number, reason: string, version: string) {
    const refused = await approve(suite.app, await checkerToken(suite.app), id);
    expectError(refused, 409, "MAKER_NOT_ALLOWED");
    expect(refused.json()).toMatchObject({ data: { reason } });
    const [row] = await suite.db.select().from(changeRequests).where(eq(changeRequests.id, id));
    expect(row).toMatchObject({ status: "pending", failureCode: "MAKER_NOT_ALLOWED" });
    const settings = (await call(suite.app, superAdmin, "GET", "/api/global-settings")).json();
    expect(settings).not.toMatchObject({ minAndroidVersion: version });
  }

  it("is refused (409 MAKER_NOT_ALLOWED) once the maker lost the code it needs", async () => {
    const maker = await createAdmin(suite.app, superAdmin, [20]);
    const id = await settingsRequest(maker.token, "8.8.8");
    const lost = await callApproved(
      suite.app,
      superAdmin,
      "PATCH",
      `/api/administrators/${maker.admin.id}/permissions`,
      { permissions: [8] },
    );
    expect(lost.statusCode, lost.body).toBe(200);
    await expectMakerRefused(id, "permission", "8.8.8");
    await withdraw(maker.token, id);
  });

  it("is refused (409 MAKER_NOT_ALLOWED) once the maker was disabled", async () => {
    const maker = await createAdmin(suite.app, superAdmin, [20]);
    const id = await settingsRequest(maker.token, "8.8.9");
    const disabled = await call(
      suite.app,
      superAdmin,
      "PATCH",
      `/api/administrators/${maker.admin.id}/status`,
      { status: "disabled" },
    );
    expect(disabled.statusCode, disabled.body).toBe(200);
    await expectMakerRefused(id, "inactive", "8.8.9");
  });
});

describe("in production", () => {
  let close = async () => {};
  afterAll(() => close());

  it("never turns four eyes off for a money movement (400 FOUR_EYES_REQUIRED); other changes may", async () => {
    const production = await productionApp();
    close = production.close;
    const { app, token, db } = production;
    const current = (await call(app, token, "GET", "/api/wallet-policy")).json<
      Record<string, unknown>
    >();
    const body = (fourEyesOff: string[]) => ({
      minTopUpSen: current.minTopUpSen,
      maxTopUpSen: current.maxTopUpSen,
      dailyTopUpLimitSen: current.dailyTopUpLimitSen,
      maxBalanceSen: current.maxBalanceSen,
      dailyPaymentLimitSen: current.dailyPaymentLimitSen,
      dormancyDays: current.dormancyDays,
      fourEyesOff,
    });
    const send = (fourEyesOff: string[]) =>
      app.inject({
        method: "POST",
        url: "/v1/api/wallet-policies",
        headers: { ...auth(token), ...A_REASON },
        payload: body(fourEyesOff),
      });
    const requests = (await db.select().from(changeRequests)).length;
    for (const money of [
      "top-up-transactions.create",
      "top-up-transactions.reverse",
      "settlements.markPaid",
      "user-reports.resolve",
    ]) {
      const refused = await send(["global-settings.update", money]);
      expectError(refused, 400, "FOUR_EYES_REQUIRED");
      expect(refused.json()).toMatchObject({ data: { change: money } });
    }
    expect(await db.select().from(changeRequests)).toHaveLength(requests);
    const allowed = await send(["global-settings.update", "administrators.permissions"]);
    expect(allowed.statusCode, allowed.body).toBe(202);
  });
});
