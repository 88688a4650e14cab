import { describe, expect, it } from "vitest";
import { formatBasisPoints, formatRinggit } from "../../src/shared/money";

describe("formatRinggit", () => {
  it("shows sen as ringgit with thousands separators and two decimals", () => {
    expect(formatRinggit(123_456)).toBe("RM 1,234.56");
    expect(formatRinggit(0)).toBe("RM 0.00");
    expect(formatRinggit(5)).toBe("RM 0.05");
    expect(formatRinggit(100)).toBe("RM 1.00");
    expect(formatRinggit(123_456_789_012)).toBe("RM 1,234,567,890.12");
  });

  it("signs negative amounts in front of the currency", () => {
    expect(formatRinggit(-1230)).toBe("-RM 12.30");
  });

  it("never prints floating-point artefacts", () => {
    expect(formatRinggit(1_000_000_000_000_01)).toBe("RM 1,000,000,000,000.01");
    expect(formatRinggit(29)).toBe("RM 0.29");
  });
});

describe("formatBasisPoints", () => {
  it("shows a rate as a percentage with two decimals", () => {
    expect(formatBasisPoints(1234)).toBe("12.34%");
    expect(formatBasisPoints(50)).toBe("0.50%");
    expect(formatBasisPoints(10_000)).toBe("100.00%");
    expect(formatBasisPoints(0)).toBe("0.00%");
  });
});
