import { describe, expect, it } from "vitest";

import {
  decimalIntegerText,
  safeMultilineText,
  safeText,
  textProblem,
} from "../../src/shared/text";

describe("the shared text rule", () => {
  it.each([
    ["plain text", "Siti Wong", undefined],
    ["CJK and emoji", "王小明 😀", undefined],
    ["a right-to-left script", "مرحبا", undefined],
    ["a NUL byte", "a\u0000b", /control characters.*U\+0000/],
    ["DEL", "a\u007fb", /control characters.*U\+007F/],
    ["a C1 control", "a\u0085b", /control characters.*U\+0085/],
    ["a line feed", "a\nb", /line breaks/],
    ["a line separator", "a\u2028b", /separators/],
    ["a right-to-left override", "a\u202eb", /bidirectional/],
    ["a first-strong isolate", "a\u2068b", /bidirectional/],
    ["a lone high surrogate", "a\ud800", /lone surrogates/],
    ["a lone low surrogate", "\udc00a", /lone surrogates/],
    ["only zero-width characters", "\u200b\u200d\u2060", /visible/],
    ["only a byte-order mark and a soft hyphen", "\ufeff\u00ad\u200b", /visible/],
  ])("single-line: %s", (_name, text, problem) => {
    const found = textProblem(text);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toMatch(problem);
  });

  it("multi-line text allows \\n and \\t, nothing else", () => {
    expect(textProblem("a\n\tb", { multiline: true })).toBeUndefined();
    expect(textProblem("a\r\nb", { multiline: true })).toMatch(/U\+000D/);
    expect(safeMultilineText().safeParse("one\ntwo").success).toBe(true);
    expect(safeText().safeParse("one\ntwo").success).toBe(false);
  });

  it("blank text is left to length rules; empty text may be allowed to be invisible", () => {
    expect(textProblem("   ")).toBeUndefined();
    expect(textProblem("")).toBeUndefined();
    expect(textProblem("\u200b", { requireVisible: false })).toBeUndefined();
    const name = safeText().trim().min(1, "Required");
    expect(name.safeParse("  ").error?.issues[0]?.message).toBe("Required");
    expect(name.safeParse(" Ali ").data).toBe("Ali");
  });

  it("decimal integers are digits only", () => {
    const page = decimalIntegerText(1, 100);
    expect(page.safeParse("12").data).toBe(12);
    for (const bad of ["0x10", "1e2", "+1", " 1", "1.0", "", "0", "101", "１"]) {
      expect(page.safeParse(bad).success, bad).toBe(false);
    }
  });
});
