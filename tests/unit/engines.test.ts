/**
 * The README promises Node.js ≥ 20.19 (package.json `engines`): every package `npm ci` installs
 * must accept the oldest Node that range admits, or `npm ci` warns EBADENGINE and the package may
 * use what that Node lacks (cookie 2 and content-disposition 3 once wanted Node ≥ 22).
 */
import { readFileSync } from "node:fs";

import semver from "semver";
import { describe, expect, it } from "vitest";

interface LockPackage {
  version?: string;
  engines?: { node?: string } | string[];
}

const manifest = JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string } };
const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as {
  packages: Record<string, LockPackage>;
};

describe("the documented Node.js engine", () => {
  const oldest = semver.minVersion(manifest.engines.node)!;

  it("is what the README states", () => {
    expect(readFileSync("README.md", "utf8")).toContain(
      `Node.js ≥ ${oldest.major}.${oldest.minor}`,
    );
  });

  it("is accepted by every installed package", () => {
    const refusing = Object.entries(lock.packages)
      .filter(([path]) => path !== "")
      .flatMap(([path, entry]) => {
        const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return range && !semver.satisfies(oldest, range)
          ? [`${path}@${entry.version}: ${range}`]
          : [];
      });
    expect(refusing).toEqual([]);
  });
});
