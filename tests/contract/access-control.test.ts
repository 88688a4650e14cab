import type { CanParams } from "@refinedev/core";
import { http as mswHttp, HttpResponse } from "msw";
import { beforeAll, describe, expect, it } from "vitest";

import {
  accessControlProvider,
  canAccess,
  createAccessControlProvider,
} from "../../src/providers/access-control";
import { setCurrentAdmin } from "../../src/providers/current-admin";
import { setToken } from "../../src/providers/session";
import { anAdmin, aToken } from "./support/fixtures";
import { initErrorTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";

const { server, requests } = useApiServer();

beforeAll(() => initErrorTexts("en-US"));

const resourceNeeding = (permissionCode: number | null | undefined): CanParams => ({
  resource: "administrators",
  action: "list",
  params: { resource: { name: "administrators", meta: { permissionCode } } },
});

describe("accessControlProvider.can", () => {
  it("allows a resource that declares no permission code, without asking the API", async () => {
    await expect(accessControlProvider.can(resourceNeeding(undefined))).resolves.toEqual({
      can: true,
    });
    await expect(accessControlProvider.can(resourceNeeding(null))).resolves.toEqual({ can: true });
    await expect(
      accessControlProvider.can({ resource: "dashboard", action: "list", params: {} }),
    ).resolves.toEqual({ can: true });
    expect(requests).toHaveLength(0);
  });

  it("allows an administrator holding the code and refuses one who does not", async () => {
    setCurrentAdmin(anAdmin({ permissions: [0, 8] }));
    await expect(accessControlProvider.can(resourceNeeding(8))).resolves.toEqual({ can: true });
    await expect(accessControlProvider.can(resourceNeeding(39))).resolves.toEqual({
      can: false,
      reason: "You have no permission to access this page",
    });
  });

  it("allows a super administrator everything", async () => {
    setCurrentAdmin(anAdmin({ permissions: [], isSuperAdmin: true }));
    await expect(accessControlProvider.can(resourceNeeding(39))).resolves.toEqual({ can: true });
  });

  it("fetches the administrator once when none is cached", async () => {
    setToken(aToken());
    server.use(
      mswHttp.get(`${API}/api/account/admin`, () =>
        HttpResponse.json(anAdmin({ permissions: [4] })),
      ),
    );
    const answers = await Promise.all([
      accessControlProvider.can(resourceNeeding(4)),
      accessControlProvider.can(resourceNeeding(8)),
    ]);
    expect(answers.map((a) => a.can)).toEqual([true, false]);
    expect(requests).toHaveLength(1);
  });

  it("refuses when nobody is signed in", async () => {
    server.use(
      mswHttp.get(`${API}/api/account/admin`, () =>
        HttpResponse.json({ message: "Missing credential key" }, { status: 401 }),
      ),
    );
    await expect(accessControlProvider.can(resourceNeeding(8))).resolves.toMatchObject({
      can: false,
    });
  });

  it("refuses a resource whose code is not a number rather than opening it", async () => {
    setCurrentAdmin(anAdmin({ isSuperAdmin: true }));
    await expect(
      accessControlProvider.can({
        action: "list",
        params: { resource: { name: "x", meta: { permissionCode: "8" } } },
      }),
    ).resolves.toMatchObject({ can: false });
  });

  it("finds the code by resource name when the check passes no resource item", async () => {
    setCurrentAdmin(anAdmin({ permissions: [0] }));
    const provider = createAccessControlProvider({
      permissionCodeOf: (name) => (name === "administrators" ? 8 : null),
    });
    await expect(
      provider.can({ resource: "administrators", action: "list" }),
    ).resolves.toMatchObject({ can: false });
    await expect(provider.can({ resource: "dashboard", action: "list" })).resolves.toEqual({
      can: true,
    });
  });

  it("hides the buttons of refused actions", () => {
    expect(accessControlProvider.options?.buttons).toEqual({
      enableAccessControl: true,
      hideIfUnauthorized: true,
    });
  });
});

describe("canAccess (the menu's check)", () => {
  const holder = { permissions: [0, 33], isSuperAdmin: false };

  it("needs no administrator for an entry without a code", () => {
    expect(canAccess(null, null)).toBe(true);
    expect(canAccess(undefined, undefined)).toBe(true);
  });

  it("follows the codes held, and a super administrator holds all", () => {
    expect(canAccess(holder, 33)).toBe(true);
    expect(canAccess(holder, 35)).toBe(false);
    expect(canAccess({ permissions: [], isSuperAdmin: true }, 35)).toBe(true);
    expect(canAccess(null, 0)).toBe(false);
  });
});
