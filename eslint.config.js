import { readdirSync } from "node:fs";
import { join } from "node:path";

import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/** The module homes, server/modules/<home>/ (the folders there, read when the config loads). */
function moduleHomes() {
  return readdirSync(join(import.meta.dirname, "server/modules"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/**
 * The layers (docs/architecture.md): the folders each folder's files never import, as paths
 * from the repository's root. A nested folder keeps its parents' rules.
 */
export const LAYERS = [
  { folder: "src", never: ["server"] },
  { folder: "src/shared", never: ["src/app", "src/providers", "src/resources", "src/calculator"] },
  { folder: "src/providers", never: ["src/app", "src/resources"] },
  { folder: "src/calculator", never: ["src/app", "src/providers", "src/resources"] },
  { folder: "src/app/kit", never: ["src/resources"] },
  { folder: "src/app/dashboard", never: ["src/resources"] },
  { folder: "server", never: ["src/app", "src/providers", "src/resources", "src/calculator"] },
  { folder: "server/services", never: ["server/routes", "server/modules"] },
  { folder: "server/routes", never: ["server/modules"] },
  {
    folder: "server/db",
    never: [
      "server/services",
      "server/auth",
      "server/jobs",
      "server/content",
      "server/routes",
      "server/seed",
      "server/modules",
    ],
  },
  { folder: "server/kit", never: ["server/services", "server/routes", "server/modules"] },
  {
    folder: "server/aggregation",
    never: ["server/kit", "server/services", "server/routes", "server/modules"],
  },
  // A module's home never imports another's: what two share goes into server/services.
  ...moduleHomes().map((home) => ({
    folder: `server/modules/${home}`,
    never: moduleHomes()
      .filter((other) => other !== home)
      .map((other) => `server/modules/${other}`),
  })),
];

/** How deep below a guarded folder its files are checked (the deepest today is 3). */
const LAYER_DEPTH = 8;

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A regular expression for the relative specifiers that, from a file `depth` folders below
 * `folder`, resolve into `target` (or below it): `../../resources/x` from src/app/kit/a.ts names
 * src/resources, while `../calculator/x` from src/shared/schemas/a.ts names src/shared/calculator.
 */
function reaching(folder, depth, target) {
  const from = folder.split("/");
  const to = target.split("/");
  const ways = [];
  // Up past the file's own folders and `up` more of the guarded folder's, then down to target.
  for (let up = 1; up <= from.length; up++) {
    const common = from.slice(0, from.length - up);
    if (common.some((segment, index) => to[index] !== segment)) continue;
    const down = to.slice(common.length).map(escape).join("/");
    ways.push(`^(\\.\\./){${depth + up}}${down}(/|$)`);
  }
  return ways.join("|");
}

/**
 * One config block per guarded folder and depth, each with every rule that applies there (a
 * later block's options replace an earlier one's): `no-restricted-imports` for static imports
 * and re-exports (type-only ones included), `no-restricted-syntax` for `import()`.
 */
function layerBlocks() {
  const guarded = [...LAYERS].sort(
    (a, b) => a.folder.split("/").length - b.folder.split("/").length,
  );
  return guarded.flatMap(({ folder }) =>
    Array.from({ length: LAYER_DEPTH + 1 }, (_, depth) => {
      const rules = LAYERS.filter(
        (layer) => folder === layer.folder || folder.startsWith(`${layer.folder}/`),
      ).map((layer) => {
        const below = folder.split("/").length - layer.folder.split("/").length + depth;
        return {
          regex: layer.never.map((target) => reaching(layer.folder, below, target)).join("|"),
          message: `${layer.folder}/ never imports ${layer.never.map((target) => `${target}/`).join(", ")} (docs/architecture.md, layers).`,
        };
      });
      return {
        files: [`${folder}/${"*/".repeat(depth)}*.{ts,tsx,mts,js,mjs}`],
        rules: {
          "no-restricted-imports": ["error", { patterns: rules }],
          "no-restricted-syntax": [
            "error",
            ...rules.map(({ regex, message }) => ({
              selector: `ImportExpression[source.value=/${regex.replaceAll("/", "\\x2F")}/]`,
              message,
            })),
          ],
        },
      };
    }),
  );
}

export default tseslint.config(
  {
    ignores: [
      "dist",
      "node_modules",
      "data",
      "server/db/migrations",
      "test-results",
      "playwright-report",
      // Deliberately wrong code that tests/unit/layers.test.ts expects the checks to refuse.
      "tests/lint-fixtures",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs,cjs}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
    },
  },
  {
    files: ["src/**/*.tsx"],
    plugins: { "react-hooks": reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  ...layerBlocks(),
);
