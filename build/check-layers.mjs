/**
 * `node build/check-layers.mjs [root] [folder…]`: fails (exit code 1) on any import cycle among
 * the TypeScript files of src/ and server/ (or the folders given, under root), printing each as a
 * path. Part of `npm run lint`; the folder rules (who may import whom) are ESLint's, in
 * eslint.config.js. No dependencies: imports are read with regular expressions over the source
 * (Prettier keeps one statement start per line) and resolved as the bundler does (`./x` is x.ts,
 * x.tsx, x/index.ts or x/index.tsx).
 *
 * What counts as an edge is what runs: a static import or re-export of values. Left out are
 * `import type` and `export type` (and declarations whose every name is `type`), which TypeScript
 * erases, and `import()`, which runs after both modules have finished loading, so that a lazy
 * page importing back into its loader is no cycle.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const SOURCE = /\.(ts|tsx|mts|mjs)$/;
const SKIPPED_DIRS = new Set(["node_modules", "migrations"]);

/** `import … from "x"` and `export … from "x"`, the clause kept to tell types from values. */
const FROM =
  /^[ \t]*(import|export)\s+(type\s+)?((?:[\w$]+\s*,\s*)?(?:\{[^}]*\}|\*(?:\s*as\s+[\w$]+)?|[\w$]+))\s*from\s*(["'])([^"'\n]+)\4/gm;
/** `import "x"`: run for its effects. */
const BARE = /^[ \t]*import\s*(["'])([^"'\n]+)\1/gm;

/** Every source file under `dir`, recursively, as absolute paths. */
function sourceFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : sourceFiles(path);
    return SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** True when every name a `{ … }` clause brings is `type`-qualified (an empty one is not). */
function onlyTypes(clause) {
  const braces = /^\{([^}]*)\}$/.exec(clause.trim());
  if (!braces) return false;
  const names = braces[1]
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  return names.length > 0 && names.every((name) => /^type\s/.test(name));
}

/** The runtime imports of a file's text: the specifiers, in order of appearance. */
export function runtimeImports(text) {
  const found = [];
  for (const match of text.matchAll(FROM)) {
    const [, , typeKeyword, clause, , specifier] = match;
    if (typeKeyword || onlyTypes(clause)) continue;
    found.push({ at: match.index, specifier });
  }
  for (const match of text.matchAll(BARE)) found.push({ at: match.index, specifier: match[2] });
  return found.sort((a, b) => a.at - b.at).map(({ specifier }) => specifier);
}

/** The file a relative specifier names, or undefined (a package, or a file not in the graph). */
function resolveImport(from, specifier, known) {
  if (!specifier.startsWith(".")) return undefined;
  const base = resolve(dirname(from), specifier);
  const candidates = [
    base,
    base.replace(/\.js$/, ".ts"),
    base.replace(/\.js$/, ".tsx"),
    `${base}.ts`,
    `${base}.tsx`,
    join(base, "index.ts"),
    join(base, "index.tsx"),
  ];
  return candidates.find((path) => known.has(path));
}

/**
 * The import graph of the source files under `folders` (relative to `root`): each file's path
 * relative to root (with `/`), and the files it imports at run time, in order.
 */
export function importGraph(root, folders) {
  const files = folders.flatMap((folder) => sourceFiles(resolve(root, folder)));
  const known = new Set(files);
  const name = (path) => relative(root, path).split(sep).join("/");
  const graph = new Map();
  for (const file of files) {
    const targets = runtimeImports(readFileSync(file, "utf8"))
      .map((specifier) => resolveImport(file, specifier, known))
      .filter((target) => target !== undefined)
      .map(name);
    graph.set(name(file), [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components of the graph with a cycle in them (Tarjan). */
function tangledComponents(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  let next = 0;
  const visit = (start) => {
    // Iterative, so that a long chain of imports cannot overflow the call stack.
    const work = [[start, 0]];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, at] = frame;
      const edges = graph.get(node) ?? [];
      if (at < edges.length) {
        frame[1]++;
        const target = edges[at];
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push([target, 0]);
        } else if (onStack.has(target)) {
          low.set(node, Math.min(low.get(node), index.get(target)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        const selfImport = (graph.get(node) ?? []).includes(node);
        if (component.length > 1 || selfImport) components.push(component);
      }
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components;
}

/** The shortest way from `start` back to itself within `members` (breadth first). */
function shortestCycle(graph, start, members) {
  const previous = new Map();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head];
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0]));
        return [...path, start];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return undefined;
}

/**
 * The import cycles of a graph, each as a path that ends where it starts: for every file caught
 * in one, the shortest cycle through it, each cycle listed once (from its first file by name).
 */
export function findCycles(graph) {
  const cycles = new Map();
  for (const component of tangledComponents(graph)) {
    const members = new Set(component);
    for (const node of [...component].sort()) {
      const cycle = shortestCycle(graph, node, members);
      if (!cycle) continue;
      const ring = cycle.slice(0, -1);
      const first = ring.indexOf([...ring].sort()[0]);
      const rotated = [...ring.slice(first), ...ring.slice(0, first)];
      cycles.set(rotated.join(" "), [...rotated, rotated[0]]);
    }
  }
  return [...cycles.values()].sort((a, b) => a.join(" ").localeCompare(b.join(" ")));
}

function main() {
  const started = performance.now();
  const [rootArgument, ...folderArguments] = process.argv.slice(2);
  const root = resolve(rootArgument ?? fileURLToPath(new URL("..", import.meta.url)));
  const folders = folderArguments.length > 0 ? folderArguments : ["src", "server"];
  const graph = importGraph(root, folders);
  const cycles = findCycles(graph);
  const took = Math.round(performance.now() - started);
  if (cycles.length === 0) {
    console.log(`No import cycle in ${folders.join(", ")} (${graph.size} files, ${took} ms).`);
    return;
  }
  for (const cycle of cycles) console.error(`Import cycle: ${cycle.join(" → ")}`);
  console.error(
    `${cycles.length} import cycle(s) in ${folders.join(", ")}: break each (move what both ` +
      "sides need into a module both import, see docs/architecture.md).",
  );
  process.exitCode = 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
