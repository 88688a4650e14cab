import { describe, expect, it } from "vitest";
import {
  formatMonths,
  formatPercent,
  formatRatioValue,
  formatRinggit,
} from "../../../src/shared/calculator/format";

describe("formatRinggit", () => {
  it.each([
    [123_456, "RM 1,234.56"],
    [0, "RM 0.00"],
    [29, "RM 0.29"],
    [100_000_000_000_000, "RM 1,000,000,000,000.00"],
    [-123_456, "−RM 1,234.56"],
    [-1, "−RM 0.01"],
  ])("writes %d sen as %s", (sen, text) => {
    expect(formatRinggit(sen)).toBe(text);
  });
});

describe("formatPercent and formatMonths", () => {
  it.each([
    [35, "35.0%"],
    [(7 / 20) * 100, "35.0%"],
    [33.333333, "33.3%"],
    [1.45, "1.5%"],
    [0.04, "0.0%"],
    [-0.04, "0.0%"],
    [-12.34, "−12.3%"],
    [12_345.67, "12,345.7%"],
  ])("writes the percentage %d as %s", (value, text) => {
    expect(formatPercent(value)).toBe(text);
  });

  it("writes months to one decimal without a unit word", () => {
    expect(formatMonths(3)).toBe("3.0");
    expect(formatMonths(5.96)).toBe("6.0");
    expect(formatMonths(0.25)).toBe("0.3");
  });

  it("refuses a figure that is not finite rather than print NaN or Infinity", () => {
    expect(() => formatPercent(Number.NaN)).toThrow(RangeError);
    expect(() => formatMonths(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it("writes a ratio in its unit", () => {
    expect(formatRatioValue("percent", 12.25)).toBe("12.3%");
    expect(formatRatioValue("rm", -5050)).toBe("−RM 50.50");
    expect(formatRatioValue("months", 4)).toBe("4.0");
  });
});
