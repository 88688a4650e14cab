/**
 * The layer checks of `npm run lint` refuse what they should: ESLint's folder rules
 * (eslint.config.js, LAYERS) on code linted as if it were inside the folder a rule guards, and the
 * import cycle check (build/check-layers.mjs) on the graphs in tests/lint-fixtures/cycles.
 */
import { execFile } from "node:child_process";
import { dirname, join, posix, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";

import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const CYCLES = join(ROOT, "tests/lint-fixtures/cycles");
const CHECKER = join(ROOT, "build/check-layers.mjs");

interface Layer {
  folder: string;
  never: string[];
}
interface Checker {
  importGraph(root: string, folders: string[]): Map<string, string[]>;
  findCycles(graph: Map<string, string[]>): string[][];
}

let eslint: ESLint;
let layers: Layer[];
let checker: Checker;

beforeAll(async () => {
  eslint = new ESLint({ cwd: ROOT });
  // Plain JavaScript modules (no TypeScript project includes them): imported by their URLs.
  const config = pathToFileURL(join(ROOT, "eslint.config.js")).href;
  layers = ((await import(/* @vite-ignore */ config)) as { LAYERS: Layer[] }).LAYERS;
  checker = (await import(/* @vite-ignore */ pathToFileURL(CHECKER).href)) as Checker;
}, 60_000);

/** The layer rules' complaints about `code` as if it were the file `filePath`. */
async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages
    .filter(({ ruleId }) => ruleId === "no-restricted-imports" || ruleId === "no-restricted-syntax")
    .map(({ message }) => message);
}

/** The specifier a file at `from` (a path from the root) uses for `to`. */
const specifier = (from: string, to: string) => {
  const path = posix.relative(dirname(from), to);
  return path.startsWith(".") ? path : `./${path}`;
};

describe("the folder rules (ESLint)", () => {
  const refused = (folder: string) => expect.stringContaining(`${folder}/ never imports`);

  it.each([
    ["src/app/kit/cells.tsx", "../../resources/users/paths", "src/app/kit"],
    ["src/app/kit/rich-text/editor.tsx", "../../../resources/help-articles", "src/app/kit"],
    ["src/app/dashboard/sections.ts", "../../resources", "src/app/dashboard"],
    ["src/shared/schemas/report.ts", "../../calculator/inputs", "src/shared"],
    ["src/shared/money.ts", "../app/menu", "src/shared"],
    ["src/shared/kit/module.ts", "../../providers/http", "src/shared"],
    ["src/providers/data.ts", "../app/menu", "src/providers"],
    ["src/app/menu.ts", "../../server/errors", "src"],
    ["server/mail/report-content.ts", "../../src/calculator/inputs", "server"],
    ["server/services/settlements.ts", "../routes/types", "server/services"],
    ["server/db/closed-days.ts", "../jobs/scheduler", "server/db"],
    ["server/db/seed.ts", "../services/settings", "server/db"],
    ["server/db/demo-content.ts", "../content/sanitize", "server/db"],
    ["server/db/index.ts", "../seed/seed", "server/db"],
    ["server/kit/bind.ts", "../services/user-audit", "server/kit"],
    ["server/kit/bind.ts", "../routes/types", "server/kit"],
    // No module's home below the kit, the shared rules, the cross-cutting routes or the data.
    ["server/kit/routes/index.ts", "../../modules", "server/kit"],
    ["server/kit/bind.ts", "../modules/users/records", "server/kit"],
    ["server/services/ledger.ts", "../modules/settlements/rules", "server/services"],
    ["server/routes/account.ts", "../modules/administrators/rules", "server/routes"],
    ["server/db/schema.ts", "../modules/users", "server/db"],
    ["server/aggregation/filter.ts", "../kit/bind", "server/aggregation"],
    // One module's home never another's.
    ["server/modules/businesses/updates.ts", "../settlements/rules", "server/modules/businesses"],
    ["server/modules/users/one/deep.ts", "../../businesses", "server/modules/users"],
  ])("refuses %s importing %s", async (filePath, from, folder) => {
    const code = `import { thing } from "${from}";\n\nexport const used = thing;\n`;
    expect(await layerErrors(filePath, code)).toEqual([refused(folder)]);
  });

  it("refuses type-only imports, re-exports and import() alike", async () => {
    const file = "server/services/settlements.ts";
    expect(await layerErrors(file, 'import type { RouteDeps } from "../routes/types";\n')).toEqual([
      refused("server/services"),
    ]);
    expect(await layerErrors(file, 'export * from "../routes/types";\n')).toEqual([
      refused("server/services"),
    ]);
    expect(
      await layerErrors(
        "src/app/dashboard/sections.ts",
        'export const page = () => import("../../resources/users/list");\n',
      ),
    ).toEqual([refused("src/app/dashboard")]);
  });

  it("passes imports that only look alike", async () => {
    const cases: Array<[string, string]> = [
      // src/shared's own calculator, not src/calculator.
      ["src/shared/schemas/report.ts", "../calculator/inputs"],
      ["src/shared/calculator/ratios.ts", "./inputs"],
      // The console's kit reads the rest of src/app and src/providers.
      ["src/app/kit/cells.tsx", "../menu"],
      ["src/app/kit/cells.tsx", "../../providers/http"],
      // A folder of a module's own, named like a guarded one.
      ["src/resources/users/index.ts", "./actions/requests"],
      // Services read the data layer, the audit trail and the kit; the data layer itself.
      ["server/services/settlements.ts", "../db/merchant-days"],
      ["server/services/settlements.ts", "../audit"],
      ["server/services/settlements.ts", "../kit/bind"],
      ["server/db/closed-days.ts", "./ledger-shards"],
      ["server/db/schema.ts", "../../src/shared/domain"],
      ["server/kit/bind.ts", "../audit"],
      // Route plugins and seeds may import services; the server reads src/shared.
      ["server/routes/settlements.ts", "../services/settlements"],
      ["server/seed/demo-money.ts", "../services/settlements"],
      // A home reads its own files, the kit and the shared rules; the seed and main a home.
      ["server/modules/businesses/updates.ts", "./businesses"],
      ["server/modules/settlements/index.ts", "../../services/bank-accounts"],
      ["server/modules/users/index.ts", "../../kit/bind"],
      ["server/modules/index.ts", "./users"],
      ["server/seed/demo-money.ts", "../modules/settlements/rules"],
      ["server/main.ts", "./modules/app-notifications"],
      ["server/mail/report-content.ts", "../../src/shared/calculator/inputs"],
    ];
    for (const [filePath, from] of cases) {
      const code = `import { thing } from "${from}";\n\nexport const used = thing;\n`;
      expect(await layerErrors(filePath, code), `${filePath} → ${from}`).toEqual([]);
    }
  });

  it("holds every rule of LAYERS, at any depth of the guarded folder", async () => {
    expect(layers.length).toBeGreaterThanOrEqual(10);
    for (const { folder, never } of layers) {
      for (const file of [`${folder}/layer-check.ts`, `${folder}/one/two/layer-check.tsx`]) {
        for (const target of never) {
          const from = specifier(file, `${target}/x`);
          const code = `import { thing } from "${from}";\n\nexport const used = thing;\n`;
          expect(await layerErrors(file, code), `${file} → ${from}`).toContainEqual(
            refused(folder),
          );
          const lazy = `export const load = () => import("${from}");\n`;
          expect(await layerErrors(file, lazy), `${file} → import(${from})`).toContainEqual(
            refused(folder),
          );
        }
      }
    }
  }, 120_000);
});

describe("the import cycle check", () => {
  const cyclesOf = (fixture: string) =>
    checker.findCycles(checker.importGraph(join(CYCLES, fixture), ["."]));

  it.each([
    ["two-files", [["a.ts", "b.ts", "a.ts"]]],
    ["three-files", [["first.ts", "second.ts", "third.ts", "first.ts"]]],
    ["through-index", [["menu.tsx", "pages/index.ts", "menu.tsx"]]],
    ["re-export", [["barrel.ts", "leaf.ts", "barrel.ts"]]],
    [
      "two-cycles",
      [
        ["hub.ts", "left.ts", "hub.ts"],
        ["hub.ts", "right.ts", "hub.ts"],
      ],
    ],
  ])("reports each cycle of %s as a path", (fixture, cycles) => {
    expect(cyclesOf(fixture)).toEqual(cycles);
  });

  it.each(["type-only", "dynamic", "clean"])(
    "finds no cycle in %s (type-only imports and import() are no edges)",
    (fixture) => {
      expect(cyclesOf(fixture)).toEqual([]);
    },
  );

  it("fails the lint step on a cycle and passes a clean graph", async () => {
    const run = promisify(execFile);
    await expect(run(process.execPath, [CHECKER, join(CYCLES, "two-files"), "."])).rejects.toThrow(
      /Import cycle: a\.ts → b\.ts → a\.ts/,
    );
    const { stdout } = await run(process.execPath, [CHECKER, join(CYCLES, "clean"), "."]);
    expect(stdout).toMatch(/No import cycle/);
  });
});
