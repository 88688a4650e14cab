/**
 * The repository explains itself: comments and documents point at the repository's own docs/,
 * never at a design file outside it, and every docs page they name exists (docs/README.md).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

/** Files that are not prose or code a person reads for references. */
const SKIPPED = new Set(["package-lock.json"]);

/** The repository's files: tracked ones and new ones not ignored, as git lists them. */
function repositoryFiles(): string[] {
  const listed = execFileSync(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    {
      cwd: ROOT,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return [...new Set(listed.split("\0").filter(Boolean))].filter((file) => !SKIPPED.has(file));
}

interface TextFile {
  path: string;
  lines: string[];
}

/** Every listed file that exists and holds text (no NUL byte). */
function textFiles(): TextFile[] {
  return repositoryFiles().flatMap((path) => {
    const absolute = join(ROOT, path);
    if (!existsSync(absolute)) return [];
    const content = readFileSync(absolute);
    if (content.includes(0)) return [];
    return [{ path, lines: content.toString("utf8").split(/\r?\n/) }];
  });
}

const FILES = textFiles();

/** `file:line: text` for every line of every file where `find` reports something. */
function problems(find: (line: string, file: TextFile) => string[]): string[] {
  return FILES.flatMap((file) =>
    file.lines.flatMap((line, index) =>
      find(line, file).map((what) => `${file.path}:${index + 1}: ${what}`),
    ),
  );
}

const isInsideRoot = (absolute: string) => {
  const path = relative(ROOT, absolute);
  return path === "" || (!path.startsWith("..") && !isAbsolute(path));
};

describe("references in comments and documents", () => {
  it("lists the repository's files", () => {
    expect(FILES.some((file) => file.path === "docs/README.md")).toBe(true);
    expect(FILES.length).toBeGreaterThan(100);
  });

  it("never point at the original design folder", () => {
    const found = problems((line) => (/shared\/design/.test(line) ? [line.trim()] : []));
    expect(found).toEqual([]);
  });

  it("never climb out of the repository into a shared folder", () => {
    // Climbing to a `shared` folder from inside src/ reaches src/shared (an import); from the root
    // it leaves the repository, and from elsewhere it names a folder the repository does not have.
    const found = problems((line, file) =>
      [...line.matchAll(/((?:\.\.\/)+)shared\//g)]
        .filter(([, ups]) => {
          const folder = resolve(ROOT, dirname(file.path), ups!, "shared");
          return !isInsideRoot(folder) || !existsSync(folder);
        })
        .map(([match]) => `${match} is no folder of the repository: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });

  it("name only docs pages that exist", () => {
    const found = problems((line) =>
      [...line.matchAll(/(?<![\w.-])docs\/([\w-]+(?:\/[\w-]+)*\.md)\b/g)]
        .filter(([, page]) => !existsSync(join(ROOT, "docs", page!)))
        .map(([match]) => `${match} does not exist`),
    );
    expect(found).toEqual([]);
  });

  it("link, in Markdown, only to files that exist", () => {
    const found = problems((line, file) => {
      if (!file.path.endsWith(".md")) return [];
      return [...line.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)]
        .map(([, target]) => target!)
        .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
        .filter((target) => {
          const absolute = resolve(ROOT, dirname(file.path), target);
          return !isInsideRoot(absolute) || !existsSync(absolute);
        })
        .map((target) => `link to ${target}, which is not a file of the repository`);
    });
    expect(found).toEqual([]);
  });
});
