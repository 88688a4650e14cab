/**
 * The registry gathers the declared modules from the declaration files' exports
 * (src/shared/kit/registry.ts): a module declared twice, or two modules claiming one collection,
 * stop the reader that finds them, naming both; helpers and types beside a declaration are not
 * mistaken for one.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";

import { defineModule, field, type ModuleInput } from "../../src/shared/kit/module";
import { collectModules, isModuleDecl } from "../../src/shared/kit/registry";
import { PERMISSION } from "../../src/shared/permissions";

const fields = { id: field(z.number().int()), name: field(z.string(), { list: true }) };

function declare(overrides: Partial<ModuleInput<typeof fields>>) {
  return defineModule({
    name: "things",
    collection: "things",
    queryName: "things",
    menu: "user-change-contact",
    permission: PERMISSION.user,
    thing: { one: "Thing", many: "Things" },
    i18n: "contact",
    paths: { list: "/things", show: "/things" },
    fields,
    titleField: "name",
    defaultSort: [["id", "desc"]],
    ...overrides,
  } as ModuleInput<typeof fields>);
}

describe("the registry of declared modules", () => {
  const things = declare({});
  const others = declare({ name: "others", collection: "others" });

  it("finds the declarations among a file's exports, each once, ordered by name", () => {
    const found = collectModules([
      { things, helper: () => undefined, LIMIT: 3, shape: { name: "fake", collection: "x" } },
      { others, again: things },
    ]);
    expect(found.map((module) => module.name)).toEqual(["others", "things"]);
  });

  it("knows a declaration by defineModule's mark, which no spread or JSON carries", () => {
    expect(isModuleDecl(things)).toBe(true);
    expect(isModuleDecl({ ...things })).toBe(false);
    expect(JSON.stringify(things.thing)).toBe('{"one":"Thing","many":"Things"}');
  });

  it("refuses a name declared twice", () => {
    const twin = declare({ collection: "twins" });
    expect(() => collectModules([{ things }, { twin }])).toThrow(
      'Module "things" is declared twice',
    );
  });

  it("refuses two modules claiming one collection, but lets a view share its module's", () => {
    const rival = declare({ name: "rival" });
    expect(() => collectModules([{ things, rival }])).toThrow(
      'Modules "things" and "rival" both declare collection "things"',
    );
    const view = declare({ name: "pending-things", viewOf: things, paths: { list: "/pending" } });
    expect(collectModules([{ things, view }]).map((module) => module.name)).toEqual([
      "pending-things",
      "things",
    ]);
  });
});
