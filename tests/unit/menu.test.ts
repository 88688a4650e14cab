import { describe, expect, it } from "vitest";
import { MENU, findMenuEntry, flattenMenu, visibleMenu, type MenuEntry } from "../../src/app/menu";
import { canAccess } from "../../src/providers/access-control";
import { resourceModules } from "../../src/resources";

const admin = (permissions: number[], isSuperAdmin = false) => ({ permissions, isSuperAdmin });

/** What an administrator sees, as `code` and `group>child` strings. */
function seen(holder: ReturnType<typeof admin>): string[] {
  const entries = visibleMenu(MENU, (code) => canAccess(holder, code));
  return entries.flatMap((entry) =>
    entry.subMenu ? entry.subMenu.map((item) => `${entry.code}>${item.code}`) : [entry.code],
  );
}

describe("the side menu", () => {
  it("shows each desk the entries of its codes, in the menu's order", () => {
    expect(seen(admin([0]))).toEqual([
      "dashboard",
      "user>user-approval",
      "user>user-mgmt",
      "user>user-change-contact",
      "setting",
    ]);
    expect(seen(admin([8]))).toEqual(["dashboard", "admin", "setting"]);
    expect(seen(admin([], true))).toEqual([
      "dashboard",
      "statistic",
      "admin",
      "user>user-approval",
      "user>user-mgmt",
      "user>user-change-contact",
      "business>business-approval",
      "business>business-mgmt",
      "business>business-update",
      "settlement>merchant-transaction-summary",
      "settlement>settlement-record",
      "top-up-transaction",
      "content-mgmt",
      "user-report",
      "wallet-policy",
      "parking>parking-lot",
      "parking>parking-session",
      "dormant-account",
      "ucsi-id-mgmt",
      "announcement>app-notification",
      "announcement>merchant-announcement",
      "setting",
      "global",
    ]);
    expect(seen(admin([24, 33]))).toEqual([
      "dashboard",
      "top-up-transaction",
      "wallet-policy",
      "setting",
    ]);
  });

  it("shows a group only while one of its items is allowed", () => {
    const group = MENU.find((entry) => entry.code === "user")!;
    const onlyOne = { ...group, subMenu: group.subMenu!.slice(0, 1) };
    const entries = visibleMenu([onlyOne], (code) => code === null);
    expect(entries).toEqual([]);
    expect(visibleMenu([onlyOne], () => true)).toEqual([onlyOne]);
  });

  it("has a page for every entry: a declared module's, or one of the shell's own", () => {
    const shellPages = ["dashboard", "statistic", "setting", "global"];
    const modulePages = resourceModules.map((module) => module.resource.meta.menuCode);
    const leaves = flattenMenu(MENU).filter((entry) => !entry.subMenu);
    expect(leaves.map((entry) => entry.code).sort()).toEqual(
      [...shellPages, ...new Set(modulePages)].sort(),
    );
  });

  it("gives every submenu item its group's permission code", () => {
    for (const group of MENU.filter((entry) => entry.subMenu)) {
      for (const item of group.subMenu ?? []) {
        expect(item.permissionCode, item.code).toBe(group.permissionCode);
      }
    }
    // Holding a code that is not the group's never reveals its items.
    expect(seen(admin([4])).filter((code) => code.startsWith("user"))).toEqual([]);
  });

  it("shows a super administrator every entry", () => {
    expect(seen(admin([], true))).toHaveLength(
      flattenMenu(MENU).filter((entry) => !entry.subMenu).length,
    );
  });

  it("lets everyone see Dashboard and Setting", () => {
    expect(seen(admin([]))).toEqual(["dashboard", "setting"]);
  });
});

describe("the highlighted entry", () => {
  const highlighted = (path: string) => {
    const found = findMenuEntry(MENU, path);
    return found && [found.group?.code, found.entry.code].filter(Boolean).join(">");
  };

  it("follows the entry's own path and everything below it", () => {
    expect(highlighted("/dashboard")).toBe("dashboard");
    expect(highlighted("/admin-mgmt")).toBe("admin");
    expect(highlighted("/admin-mgmt/create")).toBe("admin");
  });

  it("follows aliases, such as detail and edit pages", () => {
    expect(highlighted("/manage-admin/3")).toBe("admin");
    expect(highlighted("/manage-admin/3/edit")).toBe("admin");
    expect(highlighted("/user-details/42")).toBe("user>user-mgmt");
    expect(highlighted("/content-details/7")).toBe("content-mgmt");
    expect(highlighted("/settlement-details/9")).toBe("settlement>settlement-record");
  });

  it("matches whole path segments only", () => {
    expect(highlighted("/admin-mgmtx")).toBeUndefined();
    expect(highlighted("/settings")).toBeUndefined();
    expect(highlighted("/")).toBeUndefined();
  });
});

describe("the menu table", () => {
  const all: MenuEntry[] = flattenMenu(MENU);

  it("has every row of docs/backoffice.md with a unique code", () => {
    // docs/backoffice.md's 28 rows: UCSI Parking is a group of its lots (and map) and its sessions.
    expect(all).toHaveLength(28);
    expect(new Set(all.map((entry) => entry.code)).size).toBe(all.length);
  });

  it("gives every page a path and every group items instead", () => {
    for (const entry of all) {
      if (entry.subMenu) expect(entry.path, entry.code).toBeUndefined();
      else expect(entry.path, entry.code).toMatch(/^\/[a-z-]+$/);
    }
  });
});
