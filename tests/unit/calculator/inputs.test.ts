import { describe, expect, it } from "vitest";
import {
  AMOUNT_FIELDS,
  CALCULATOR_FIELDS,
  MAX_AMOUNT_SEN,
  parseAmount,
  validateCalculatorInputs,
} from "../../../src/shared/calculator/inputs";

describe("the calculator's fields", () => {
  it("are the name and the 14 amounts of docs/calculator.md, in their sections", () => {
    expect(CALCULATOR_FIELDS.map((f) => f.key)).toEqual(["name", ...AMOUNT_FIELDS]);
    expect(AMOUNT_FIELDS).toHaveLength(14);
    const bySection = (section: string) =>
      CALCULATOR_FIELDS.filter((f) => f.section === section).map((f) => f.key);
    expect(bySection("top")).toEqual(["name", "targetNetworth"]);
    expect(bySection("assets")).toEqual([
      "cashAndCashEquivalents",
      "totalPropertyWorth",
      "totalBusinessWorth",
      "others",
    ]);
    expect(bySection("liabilities")).toEqual([
      "totalMortgageBalance",
      "carLoanBalance",
      "creditCardPersonalLoanBalance",
    ]);
    expect(bySection("cashflow")).toHaveLength(6);
  });
});

describe("parseAmount", () => {
  it.each([
    ["", null],
    ["   ", null],
    ["0", 0],
    ["12", 1200],
    ["0.29", 29],
    ["0.1", 10],
    [".5", 50],
    ["5.", 500],
    ["1234.56", 123_456],
    ["1,234.56", 123_456],
    ["1,234,567", 123_456_700],
    ["  42.07  ", 4207],
    ["007.10", 710],
    ["1000000000000", MAX_AMOUNT_SEN],
    ["999999999999.99", MAX_AMOUNT_SEN - 1],
  ])("reads %j as %j sen, exactly", (text, sen) => {
    expect(parseAmount(text)).toEqual({ ok: true, sen });
  });

  it.each([
    ["-1", "negative"],
    ["-0.50", "negative"],
    ["− 12", "negative"],
    ["abc", "notANumber"],
    ["12abc", "notANumber"],
    ["1e5", "notANumber"],
    ["+5", "notANumber"],
    [".", "notANumber"],
    ["1,2", "notANumber"],
    ["12,34.5", "notANumber"],
    ["1.2.3", "notANumber"],
    ["RM 5", "notANumber"],
    ["-abc", "notANumber"],
    ["1.234", "tooManyDecimals"],
    ["0.001", "tooManyDecimals"],
    ["1.500", "tooManyDecimals"],
    ["1000000000000.01", "tooLarge"],
    ["99999999999999", "tooLarge"],
    ["12345678901234567890", "tooLarge"],
  ])("refuses %j as %s", (text, error) => {
    expect(parseAmount(text)).toEqual({ ok: false, error });
  });

  it("never goes through floating multiplication (every sen of a ringgit is exact)", () => {
    for (let sen = 0; sen < 100; sen++) {
      const text = `1.${String(sen).padStart(2, "0")}`;
      expect(parseAmount(text)).toEqual({ ok: true, sen: 100 + sen });
    }
  });
});

describe("validateCalculatorInputs", () => {
  it("returns every amount in sen, blanks as 0, and the trimmed name", () => {
    const result = validateCalculatorInputs({
      name: "  Aisyah  ",
      cashAndCashEquivalents: "30000",
      monthlyTotalInflow: "8,000.50",
      targetNetworth: "",
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.name).toBe("Aisyah");
    expect(result.amounts.cashAndCashEquivalents).toBe(3_000_000);
    expect(result.amounts.monthlyTotalInflow).toBe(800_050);
    expect(result.amounts.targetNetworth).toBe(0);
    expect(Object.keys(result.amounts).sort()).toEqual([...AMOUNT_FIELDS].sort());
  });

  it("leaves the name out when it is blank, and ignores keys that are not fields", () => {
    const result = validateCalculatorInputs({ name: "   ", somethingElse: "-5" });
    expect(result).toEqual({ ok: true, amounts: expect.any(Object) });
    expect(result.ok && "name" in result).toBe(false);
  });

  it("names every bad field with its error", () => {
    expect(
      validateCalculatorInputs({
        name: "x".repeat(101),
        carLoanBalance: "-1",
        others: "lots",
        totalPropertyWorth: "1.999",
        totalBusinessWorth: "1000000000001",
        cashAndCashEquivalents: "10",
      }),
    ).toEqual({
      ok: false,
      errors: {
        name: "tooLong",
        carLoanBalance: "negative",
        others: "notANumber",
        totalPropertyWorth: "tooManyDecimals",
        totalBusinessWorth: "tooLarge",
      },
    });
  });

  it("accepts a 100-character name and treats null and missing values as blank", () => {
    const result = validateCalculatorInputs({ name: "y".repeat(100), others: null });
    expect(result.ok).toBe(true);
  });

  it("refuses values that are neither text nor a finite number", () => {
    expect(validateCalculatorInputs({ others: { sen: 5 }, name: 12 })).toEqual({
      ok: false,
      errors: { others: "notANumber", name: "notText" },
    });
    expect(validateCalculatorInputs({ others: Number.NaN }).ok).toBe(false);
    expect(validateCalculatorInputs({ others: 12.5 })).toMatchObject({
      ok: true,
      amounts: { others: 1250 },
    });
  });
});
