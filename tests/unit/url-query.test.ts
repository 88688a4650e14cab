import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

/**
 * Refine keeps a list's page, sorters and filters in the URL with qs, which in the console's
 * build runs on build/side-channel.cjs instead of the side-channel package (vite.config.ts). The
 * stand-in must answer every call as the package does.
 */
const require = createRequire(import.meta.url);
type Channel = {
  assert: (key: unknown) => void;
  delete: (key: unknown) => boolean;
  get: (key: unknown) => unknown;
  has: (key: unknown) => boolean;
  set: (key: unknown, value: unknown) => void;
};
const standIn = require("../../build/side-channel.cjs") as () => Channel;
const original = require("side-channel") as () => Channel;

const object = {};
const fn = () => undefined;

/** Every call of a script on a fresh channel, and what each answered or threw. */
function play(make: () => Channel) {
  const channel = make();
  const answers: unknown[] = [];
  const call = (op: () => unknown) => {
    try {
      answers.push(op());
    } catch (error) {
      answers.push(error instanceof TypeError ? "TypeError" : error);
    }
  };
  for (const key of [object, fn, "text", 1, null, undefined]) {
    call(() => channel.has(key));
    call(() => channel.get(key));
    call(() => channel.assert(key));
    call(() => channel.set(key, [key]));
    call(() => channel.has(key));
    call(() => channel.get(key));
    call(() => channel.assert(key));
    call(() => channel.delete(key));
    call(() => channel.has(key));
    call(() => channel.delete(key));
  }
  call(() => channel.get({}));
  return answers;
}

describe("the console's side-channel stand-in (qs in the lists' URLs)", () => {
  it("answers every call as the side-channel package does", () => {
    const expected = play(original);
    expect(expected).toContain("TypeError");
    expect(play(standIn)).toEqual(expected);
  });

  it("keeps a separate store per channel", () => {
    const [a, b] = [standIn(), standIn()];
    const key = {};
    a.set(key, 1);
    expect(b.has(key)).toBe(false);
    expect(a.get(key)).toBe(1);
  });
});
