/**
 * The one CSV injection rule (src/shared/csv.ts), as the console's export applies it (csvCell) and
 * the UCSI ID import reads it: OWASP's starts, also after blanks a spreadsheet trims and in
 * full width (issue 30).
 */
import { describe, expect, it } from "vitest";

import { csvCell } from "../../src/app/kit/csv";
import { looksLikeFormula } from "../../src/shared/csv";

describe("looksLikeFormula", () => {
  it.each([
    "=1+1",
    "+60123456789",
    "-2+3",
    "@SUM(A1)",
    "\t=1",
    "\r=1",
    " =1+1",
    "   +1",
    "\u00a0=1",
    "\u3000=1",
    "\n=1",
    "＝1+1",
    "＋1",
    "－1",
    "＠SUM(A1)",
    " ＝1+1",
  ])("%j is a formula", (cell) => {
    expect(looksLikeFormula(cell)).toBe(true);
  });

  it.each(["plain", "a=b", "W100000001", "Tan, Mei Ling", " plain", "", "   ", "1+1", "王小明＝"])(
    "%j is not",
    (cell) => {
      expect(looksLikeFormula(cell)).toBe(false);
    },
  );
});

describe("csvCell", () => {
  it("defuses a formula behind blanks or in full width with a leading apostrophe", () => {
    expect(csvCell(" =1+1")).toBe("' =1+1");
    expect(csvCell("＝1+1")).toBe("'＝1+1");
    expect(csvCell("＋60123456789")).toBe("'＋60123456789");
    expect(csvCell("－2")).toBe("'－2");
    expect(csvCell("＠SUM(A1)")).toBe("'＠SUM(A1)");
    expect(csvCell(' =HYPERLINK("x")')).toBe('"\' =HYPERLINK(""x"")"');
    expect(csvCell(" plain")).toBe(" plain");
  });
});
