/**
 * A declaration that cannot work fails where the developer is, never at a user's first click:
 * in the type checker (the `@ts-expect-error` lines below are checked by `npm run typecheck`)
 * and, for what types cannot see, when the module is imported, with the module and field named.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";

import { linkedModule, recordPath } from "../../src/app/kit/links";
import { resourceOf } from "../../src/app/kit/resource";
import { MODULES } from "../../src/app/registry";
import {
  decision,
  defineModule,
  field,
  rowField,
  type ModuleInput,
} from "../../src/shared/kit/module";
import { isoDateTime } from "../../src/shared/kit/types";
import { businessApproval } from "../../src/shared/modules/businesses";
import { ucsiIds } from "../../src/shared/modules/ucsi-ids";
import { walletTransactions } from "../../src/shared/modules/wallet-transactions";
import { PERMISSION, type PermissionCode } from "../../src/shared/permissions";

const base = {
  name: "things",
  collection: "things",
  queryName: "things",
  menu: "user-change-contact",
  permission: PERMISSION.user,
  thing: { one: "Thing", many: "Things" },
  i18n: "contact",
  paths: { list: "/user-change-contact" },
  titleField: "name",
  defaultSort: [["createdAt", "desc"]],
} as const;

const fields = {
  id: field(z.number().int(), { filter: "numberRange" }),
  name: field(z.string(), { list: true, filter: "text", sort: true }),
  status: field(z.enum(["pending", "done"]), { list: true, filter: "choice" }),
  createdAt: field(isoDateTime, { filter: "dateRange", sort: true }),
};

const declare = (overrides: Partial<ModuleInput<typeof fields>>) =>
  defineModule({ ...base, fields, ...overrides } as ModuleInput<typeof fields>);

describe("a module declaration", () => {
  it("does not compile with a filter its field's type cannot carry", () => {
    // @ts-expect-error a yes / no field cannot be searched as text
    field(z.boolean(), { filter: "text" });
    // @ts-expect-error a date cannot be a choice
    field(isoDateTime, { filter: "choice" });
    // @ts-expect-error free text is no date range
    field(z.string().nullable(), { filter: "dateRange" });
    expect(field(z.enum(["a"]).nullable(), { filter: "choice" }).filter).toBe("choice");
  });

  it("refuses, when imported, a filter kind forced past the type checker, naming module and field", () => {
    const forced = { flag: { schema: z.boolean(), filter: "text" as const } };
    expect(() =>
      defineModule({ ...base, fields: { ...fields, ...forced } } as unknown as ModuleInput<
        typeof fields
      >),
    ).toThrow('Module "things": field "flag" cannot be filtered as "text"');
  });

  it("refuses a permission code that does not exist", () => {
    expect(() => declare({ permission: 7 as PermissionCode })).toThrow(
      'Module "things": permission code 7 does not exist',
    );
  });

  it("refuses a sort, title, filter or guard naming no field", () => {
    expect(() => declare({ defaultSort: [["nope" as "name", "asc"]] })).toThrow(
      'defaultSort names "nope"',
    );
    expect(() => declare({ titleField: "nope" as "name" })).toThrow('titleField names "nope"');
    expect(() => declare({ initialFilters: { nope: "x" } as never })).toThrow(
      'initialFilters names "nope"',
    );
    expect(() =>
      declare({ actions: { decide: decision({ when: { nope: ["x"] }, audit: "thing" }) } }),
    ).toThrow('action "decide" names "nope"');
  });

  it("refuses a view whose fields differ from those of the module it views", () => {
    const [users] = MODULES.filter((module) => module.name === "users");
    expect(() => declare({ viewOf: users })).toThrow('its fields differ from those of "users"');
  });

  it("builds the record schema from its fields, leaving filter-only ones out", () => {
    const module = defineModule({
      ...base,
      fields: { ...fields, hidden: field(z.string(), { filter: "text", filterOnly: true }) },
    } as ModuleInput<typeof fields>);
    expect(Object.keys(module.item.shape)).toEqual(["id", "name", "status", "createdAt"]);
    expect(
      module.item.safeParse({ id: 1, name: "n", status: "done", createdAt: "2026-01-01T00:00:00Z" })
        .success,
    ).toBe(true);
  });
});

describe("the console's reader", () => {
  it("refuses a menu entry that does not exist, or one guarded by another code", () => {
    expect(() => resourceOf(declare({ menu: "no-such-entry" }))).toThrow(
      'Module "things": menu entry "no-such-entry" does not exist',
    );
    expect(() => resourceOf(declare({ permission: PERMISSION.admin }))).toThrow(
      "permission 8 differs from its menu entry's 0",
    );
    expect(() => resourceOf(declare({ paths: { list: "/elsewhere" } }))).toThrow(
      "list path is not its menu entry's path",
    );
  });

  it("turns every declared module into a resource with its menu code and permission", () => {
    for (const module of MODULES) {
      const { resource } = resourceOf(module);
      expect(resource.meta).toMatchObject({
        collection: module.collection,
        listKey: module.queryName,
        permissionCode: module.permission,
        menuCode: module.menu,
      });
      expect(resource.list).toBe(module.detailOnly ? undefined : module.paths.list);
    }
  });

  it("draws a detail page only (detailOnly) without a list page or a menu entry", () => {
    const { resource, pages } = resourceOf(walletTransactions);
    expect(resource.show).toBe("/wallet-transaction/:id");
    expect(resource.list).toBeUndefined();
    expect(Object.keys(pages)).toEqual(["show"]);
    expect(resource.meta.permissionCode).toBe(PERMISSION.user);
    // Any ledger row's page, found by name as links find it.
    expect(recordPath(walletTransactions, 42)).toBe("/wallet-transaction/42");
    expect(() =>
      defineModule({ ...walletTransactions, name: "no-page", paths: { list: "/no-page" } }),
    ).toThrow('Module "no-page": a detail page only needs paths.show');
  });

  it("finds a link's target in the declarations: by name, itself, or the module a view shows", () => {
    expect(recordPath(linkedModule(ucsiIds, "users"), 7)).toBe("/user-details/7");
    expect(recordPath(linkedModule(ucsiIds, "administrators"), 3)).toBe("/manage-admin/3");
    expect(recordPath(linkedModule(ucsiIds, "self"), 12)).toBe(`${ucsiIds.paths.show}/12`);
    expect(recordPath(linkedModule(businessApproval, "self"), 5)).toBe("/business-details/5");
  });

  it("links every named target to a declared module with a detail page", () => {
    for (const module of MODULES) {
      for (const decl of Object.values(module.fields)) {
        // A link to the module a row names is checked by the row (linkedModule's `{ field }`).
        if (decl.display?.kind !== "link" || rowField(decl.display.to)) continue;
        const target = linkedModule(module, decl.display.to)!;
        expect(
          (target.viewOf ?? target).paths.show,
          `${module.name} → ${target.name}`,
        ).toBeDefined();
      }
    }
  });
});
