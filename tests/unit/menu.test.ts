import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  MENU_LAYOUT,
  findMenuEntry,
  flattenMenu,
  menuOf,
  registryOf,
  visibleMenu,
  type MenuEntry,
  type MenuRow,
} from "../../src/app/menu";
import { MENU, MODULES } from "../../src/app/registry";
import { canAccess } from "../../src/providers/access-control";
import { resourceModules, resourceModulesOf } from "../../src/resources";
import { parking as ownParkingScreens } from "../../src/resources/parking";
import { users as ownUserScreens } from "../../src/resources/users";
import type { ModuleDecl } from "../../src/shared/kit/module";
import { users } from "../../src/shared/modules/users";

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
    // Pending approvals (no code of its own) follows Dashboard for everyone.
    expect(seen(admin([0]))).toEqual([
      "dashboard",
      "change-requests",
      "user>user-approval",
      "user>user-mgmt",
      "user>user-change-contact",
      "setting",
    ]);
    expect(seen(admin([8]))).toEqual([
      "dashboard",
      "change-requests",
      "admin",
      "audit-log",
      "setting",
    ]);
    expect(seen(admin([], true))).toEqual([
      "dashboard",
      "change-requests",
      "statistic",
      "admin",
      "audit-log",
      "user>user-approval",
      "user>user-mgmt",
      "user>user-change-contact",
      "business>business-approval",
      "business>business-mgmt",
      "business>business-update",
      "settlement>merchant-transaction-summary",
      "settlement>settlement-record",
      "settlement>reconciliation",
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
      "change-requests",
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
    // A detail page only (ModuleInput.detailOnly) has no entry.
    const modulePages = resourceModules
      .filter((module) => !module.resource.meta.module?.detailOnly)
      .map((module) => module.resource.meta.menuCode);
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

  it("lets everyone see Dashboard, Pending approvals and Setting", () => {
    expect(seen(admin([]))).toEqual(["dashboard", "change-requests", "setting"]);
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

  it("has a row for each shell page, group and declared module, with a unique code", () => {
    // UCSI Parking is a group of its lots (and map) and its sessions.
    const ownRows = MENU_LAYOUT.filter((row) => row.kind !== "module").length;
    const listed = MODULES.filter((module) => !module.detailOnly);
    expect(all).toHaveLength(ownRows + listed.length);
    expect(new Set(all.map((entry) => entry.code)).size).toBe(all.length);
  });

  it("gives every page a path and every group items instead", () => {
    for (const entry of all) {
      if (entry.subMenu) expect(entry.path, entry.code).toBeUndefined();
      else expect(entry.path, entry.code).toMatch(/^\/[a-z-]+$/);
    }
  });
});

describe("the registry of declared modules", () => {
  const ROOT = join(import.meta.dirname, "../..");
  const byMenu = (code: string) => MODULES.find((module) => module.menu === code)!;
  const Icon = () => null;
  const without = (code: string): MenuRow[] =>
    MENU_LAYOUT.flatMap((row): MenuRow[] => {
      if (row.kind === "group") {
        return [{ ...row, items: row.items.filter((item) => item.code !== code) }];
      }
      return row.code === code ? [] : [row];
    });

  it("finds every declaration file's modules, in the menu's order", () => {
    const declared = MODULES.map((module) => module.name);
    expect(new Set(declared).size).toBe(declared.length);
    const leaves = flattenMenu(MENU).flatMap((entry) => (entry.module ? [entry.module] : []));
    // Detail pages only (ModuleInput.detailOnly) have no entry, and come last.
    const detailOnly = MODULES.filter((module) => module.detailOnly).map((module) => module.name);
    expect(declared).toEqual([...leaves, ...detailOnly]);
    // Every file of the folder was looked at: the one that declares users among them.
    expect(readdirSync(join(ROOT, "src/shared/modules"))).toContain("users.ts");
    expect(MODULES).toContain(users);
  });

  it("takes each module's path, code, label and aliases from its declaration", () => {
    for (const entry of flattenMenu(MENU).filter((candidate) => candidate.module)) {
      const module = byMenu(entry.code);
      expect(entry.module).toBe(module.name);
      expect(entry.path, entry.code).toBe(module.paths.list);
      expect(entry.permissionCode, entry.code).toBe(module.permission);
      // A module names its entry in its own namespace.
      expect(entry.label).toBe(`menu:modules.${module.i18n}`);
      if (module.paths.show) {
        expect(findMenuEntry(MENU, `${module.paths.show}/1`)?.entry.code).toBe(entry.code);
      }
    }
    const aliases = (code: string) => flattenMenu(MENU).find((entry) => entry.code === code)?.alias;
    expect(aliases("admin")).toEqual(["/manage-admin"]);
    expect(aliases("user-mgmt")).toEqual(["/user-details"]);
    expect(aliases("business-mgmt")).toEqual(["/business-details"]);
    expect(aliases("business-update")).toEqual(["/business-update-details"]);
    expect(aliases("settlement-record")).toEqual(["/settlement-details"]);
    expect(aliases("parking-lot")).toEqual(["/parking-lot"]);
    // A legacy prefix the declaration does not hold stays in the layout.
    expect(aliases("content-mgmt")).toEqual(["/content-details", "/manage-content"]);
    expect(aliases("top-up-transaction")).toBeUndefined();
  });

  it("refuses a menu entry naming a module that is not declared", () => {
    const layout: MenuRow[] = [...MENU_LAYOUT, { kind: "module", code: "nowhere", icon: Icon }];
    expect(() => menuOf(layout, MODULES)).toThrow('Menu entry "nowhere" names no declared module');
  });

  it("refuses a declared module that no menu group shows, naming it", () => {
    expect(() => menuOf(without("user-change-contact"), MODULES)).toThrow(
      'Module "change-contact-submissions" (menu entry "user-change-contact") appears in no menu group',
    );
    expect(() => menuOf(without("wallet-policy"), MODULES)).toThrow(
      'Module "wallet-policies" (menu entry "wallet-policy") appears in no menu group',
    );
  });

  it("refuses a module in a group guarded by another code", () => {
    const layout = MENU_LAYOUT.map((row) =>
      row.kind === "group" && row.code === "user" ? { ...row, permissionCode: 4 } : row,
    );
    expect(() => menuOf(layout, MODULES)).toThrow(
      'Module "user-approval" has permission 0, but its menu group "user" has 4',
    );
  });

  it("refuses two modules naming one menu entry, and an entry listed twice", () => {
    const twin = { ...byMenu("user-mgmt"), name: "user-twins" } as ModuleDecl;
    expect(() => menuOf(MENU_LAYOUT, [...MODULES, twin])).toThrow(
      'Modules "users" and "user-twins" both name menu entry "user-mgmt"',
    );
    const twice: MenuRow[] = [...MENU_LAYOUT, { kind: "module", code: "admin", icon: Icon }];
    expect(() => menuOf(twice, MODULES)).toThrow('Menu entry "admin" appears twice');
  });

  it("builds the same registry from the declaration files' exports, whatever else they export", () => {
    const files = MODULES.map((module) => ({ [module.name]: module, helper: 1, list: [module] }));
    const { MODULES: found, MENU: menu } = registryOf([...files, ...files]);
    expect(found).toEqual(MODULES);
    expect(menu).toEqual(MENU);
  });

  it("takes a module's own screens from its folder and draws every other one with the kit", () => {
    const resourceOfModule = (name: string) =>
      resourceModules.find((module) => module.resource.name === name);
    expect(resourceModules.map((module) => module.resource.name)).toEqual(
      MODULES.map((module) => module.name),
    );
    expect(resourceOfModule("users")).toBe(ownUserScreens);
    expect(resourceOfModule("parking-lots")).toBe(ownParkingScreens);
    // Sessions have no folder: the kit's generated list.
    expect(resourceOfModule("parking-sessions")?.pages.list).toBeDefined();
    expect(resourceModulesOf(MODULES, {}).map((module) => module.resource.name)).toEqual(
      MODULES.map((module) => module.name),
    );
  });

  it("refuses screens of their own naming no declared module, naming the folder", () => {
    const users = ownUserScreens;
    const stray = { ...users, resource: { ...users.resource, name: "nobody" } };
    expect(() => resourceModulesOf(MODULES, { "./nobody/index.ts": { stray } })).toThrow(
      'Screens of "nobody" in ./nobody/index.ts: no declared module has that name',
    );
    expect(() =>
      resourceModulesOf(MODULES, {
        "./a/index.ts": { users },
        "./b/index.ts": { copy: { ...users } },
      }),
    ).toThrow('Module "users" has screens of its own twice: ./a/index.ts and ./b/index.ts');
  });
});
