/**
 * Discovery pairs every declared module with its binding at start-up: a declared module
 * without a binding, a binding of a declaration that is not declared, or one declaration bound
 * twice stops the server, naming the module. And the real tree pairs up: every declaration in
 * src/shared/modules has its home in server/modules.
 */
import { readdirSync } from "node:fs";

import { describe, expect, it } from "vitest";
import { z } from "zod";

import { changeContactSubmissions } from "../../server/db/schema";
import { bindModule } from "../../server/kit/bind";
import { collectBindings, pairModules } from "../../server/kit/discovery";
import { BOUND_MODULES, DECLARED_MODULES } from "../../server/modules";
import { decision, defineModule, field } from "../../src/shared/kit/module";
import { PERMISSION } from "../../src/shared/permissions";

const declare = (name: string) =>
  defineModule({
    name,
    collection: name,
    queryName: name,
    menu: "user-change-contact",
    permission: PERMISSION.user,
    thing: { one: "Probe", many: "Probes" },
    i18n: "contact",
    paths: { list: `/${name}` },
    fields: {
      id: field(z.number().int(), { filter: "numberRange" }),
      status: field(z.enum(["pending", "approved", "rejected"]), { filter: "choice" }),
    },
    titleField: "id",
    defaultSort: [["id", "desc"]],
    actions: { decide: decision({ when: { status: ["pending"] }, audit: "probe" }) },
  });

const bind = (module: ReturnType<typeof declare>) =>
  bindModule(module, { table: changeContactSubmissions, actions: { decide: async () => {} } });

describe("pairing declared and bound modules", () => {
  const probe = declare("probe");
  const other = declare("other-probe");

  it("pairs each declaration with its binding, in the declarations' order", () => {
    const [bound, otherBound] = [bind(probe), bind(other)];
    expect(pairModules([other, probe], [bound, otherBound])).toEqual([otherBound, bound]);
  });

  it("refuses a declared module without a binding, naming it", () => {
    expect(() => pairModules([probe, other], [bind(probe)])).toThrow(
      'Module "other-probe" is declared in src/shared/modules but has no binding in server/modules',
    );
  });

  it("refuses a binding whose declaration is not declared, naming it", () => {
    expect(() => pairModules([probe], [bind(probe), bind(other)])).toThrow(
      'Module "other-probe" is bound in server/modules but not declared in src/shared/modules',
    );
    // A look-alike declaration (same name, another object) is not the declared one.
    expect(() => pairModules([probe], [bind(declare("probe"))])).toThrow(
      'Module "probe" is bound in server/modules but not declared',
    );
  });

  it("refuses a declaration bound twice", () => {
    expect(() => pairModules([probe], [bind(probe), bind(probe)])).toThrow(
      'Module "probe" is bound twice',
    );
  });

  it("finds bound modules among a home's exports by their mark, each once", () => {
    const bound = bind(probe);
    expect(
      collectBindings([
        { bound, helper: () => 1, constant: 5, shape: { module: probe, binding: {} } },
        { again: bound },
      ]),
    ).toEqual([bound]);
  });
});

describe("the modules of this tree", () => {
  it("are every declaration file's modules, each bound once", () => {
    const files = readdirSync(new URL("../../src/shared/modules/", import.meta.url)).filter(
      (file) => file.endsWith(".ts") && file !== "index.ts",
    );
    expect(files.length).toBeGreaterThan(10);
    expect(BOUND_MODULES.map((bound) => bound.module)).toEqual(DECLARED_MODULES);
    expect(DECLARED_MODULES.map((module) => module.name)).toContain("administrators");
  });
});
