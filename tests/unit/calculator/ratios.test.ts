import { describe, expect, it } from "vitest";
import { AMOUNT_FIELDS, type CalculatorAmounts } from "../../../src/shared/calculator/inputs";
import {
  RATIOS,
  RATIO_GROUPS,
  RATIO_KEYS,
  computeRatios,
  deriveFigures,
  type RatioKey,
  type RatioResult,
} from "../../../src/shared/calculator/ratios";

/** Amounts given in whole ringgit (or sen with a decimal), everything else blank. */
function amounts(ringgit: Partial<Record<keyof CalculatorAmounts, number>>): CalculatorAmounts {
  const all = Object.fromEntries(AMOUNT_FIELDS.map((f) => [f, 0])) as CalculatorAmounts;
  for (const [field, value] of Object.entries(ringgit)) {
    all[field as keyof CalculatorAmounts] = Math.round(value * 100);
  }
  return all;
}

/** A household the spec's benchmarks call healthy in every respect. */
const HEALTHY = amounts({
  targetNetworth: 500_000,
  cashAndCashEquivalents: 60_000,
  totalPropertyWorth: 400_000,
  totalBusinessWorth: 50_000,
  others: 90_000,
  totalMortgageBalance: 150_000,
  carLoanBalance: 20_000,
  creditCardPersonalLoanBalance: 5_000,
  monthlyTotalInflow: 10_000,
  monthlyActiveIncome: 11_000,
  monthlyPassiveIncome: 1_000,
  totalMonthlyExpenses: 6_000,
  monthlyMortgageLoanRepayment: 2_000,
  monthlyNonMortgageLoanRepayment: 1_000,
});

describe("the derived figures", () => {
  it("sum assets, liabilities and incomes in sen", () => {
    expect(deriveFigures(HEALTHY)).toEqual({
      totalAssets: 60_000_000,
      totalLiabilities: 17_500_000,
      networth: 42_500_000,
      grossMonthlyIncome: 1_200_000,
      monthlySavings: 400_000,
    });
  });
});

describe("the ten ratios of a healthy household", () => {
  const ratios = computeRatios(HEALTHY);
  it.each<[RatioKey, number, RatioResult["band"]]>([
    ["basicLiquidityRatio", 10, "optimum"],
    ["savingsRatio", (4_000 / 12_000) * 100, "optimum"],
    ["goldenRatio", (1_000 / 6_000) * 100, "adverse"],
    ["debtServiceRatio", 30, "optimum"],
    ["nonMortgageDebtServiceRatio", 10, "optimum"],
    ["debtToAssetRatio", (175_000 / 600_000) * 100, "optimum"],
    ["solvencyRatio", (425_000 / 600_000) * 100, "optimum"],
    ["networth", 42_500_000, "optimum"],
    ["liquidAssetToNetworthRatio", (60_000 / 425_000) * 100, "moderate"],
    ["progressTowardsTargetNetworth", 85, "moderate"],
  ])("%s is %d (%s)", (key, value, band) => {
    expect(ratios[key].value).toBeCloseTo(value, 10);
    expect(ratios[key].band).toBe(band);
    expect(ratios[key].reason).toBeUndefined();
  });
});

/** One ratio from a few amounts. */
const ratio = (key: RatioKey, given: Parameters<typeof amounts>[0]) =>
  computeRatios(amounts(given))[key];

describe("band edges: the optimum band includes its edge, the moderate/adverse edge is moderate", () => {
  it.each<[RatioKey, Parameters<typeof amounts>[0], number, RatioResult["band"]]>([
    // Basic liquidity: ≥ 3 / 1 – 3 / < 1 months.
    [
      "basicLiquidityRatio",
      { cashAndCashEquivalents: 3000, totalMonthlyExpenses: 1000 },
      3,
      "optimum",
    ],
    [
      "basicLiquidityRatio",
      { cashAndCashEquivalents: 2999.99, totalMonthlyExpenses: 1000 },
      2.99999,
      "moderate",
    ],
    [
      "basicLiquidityRatio",
      { cashAndCashEquivalents: 1000, totalMonthlyExpenses: 1000 },
      1,
      "moderate",
    ],
    [
      "basicLiquidityRatio",
      { cashAndCashEquivalents: 999.99, totalMonthlyExpenses: 1000 },
      0.99999,
      "adverse",
    ],
    [
      "basicLiquidityRatio",
      { cashAndCashEquivalents: 0, totalMonthlyExpenses: 1000 },
      0,
      "adverse",
    ],
    // Savings: ≥ 10 / 5 – 10 / < 5 %.
    [
      "savingsRatio",
      { monthlyTotalInflow: 1000, totalMonthlyExpenses: 900, monthlyActiveIncome: 1000 },
      10,
      "optimum",
    ],
    [
      "savingsRatio",
      { monthlyTotalInflow: 1000, totalMonthlyExpenses: 950, monthlyActiveIncome: 1000 },
      5,
      "moderate",
    ],
    [
      "savingsRatio",
      { monthlyTotalInflow: 1000, totalMonthlyExpenses: 950.01, monthlyActiveIncome: 1000 },
      4.999,
      "adverse",
    ],
    // Golden: ≥ 100 / 25 – 100 / < 25 %.
    ["goldenRatio", { monthlyPassiveIncome: 2000, totalMonthlyExpenses: 2000 }, 100, "optimum"],
    ["goldenRatio", { monthlyPassiveIncome: 500, totalMonthlyExpenses: 2000 }, 25, "moderate"],
    [
      "goldenRatio",
      { monthlyPassiveIncome: 499.99, totalMonthlyExpenses: 2000 },
      24.9995,
      "adverse",
    ],
    // Debt service: ≤ 35 / 35 – 45 / > 45 %; 7 ÷ 20 is 35 % exactly although 0.35 is not a float.
    [
      "debtServiceRatio",
      { monthlyMortgageLoanRepayment: 7, monthlyTotalInflow: 20 },
      35,
      "optimum",
    ],
    [
      "debtServiceRatio",
      {
        monthlyMortgageLoanRepayment: 3000,
        monthlyNonMortgageLoanRepayment: 500,
        monthlyTotalInflow: 10000,
      },
      35,
      "optimum",
    ],
    [
      "debtServiceRatio",
      { monthlyMortgageLoanRepayment: 3500.01, monthlyTotalInflow: 10000 },
      35.0001,
      "moderate",
    ],
    [
      "debtServiceRatio",
      { monthlyMortgageLoanRepayment: 4500, monthlyTotalInflow: 10000 },
      45,
      "moderate",
    ],
    [
      "debtServiceRatio",
      { monthlyNonMortgageLoanRepayment: 4500.01, monthlyTotalInflow: 10000 },
      45.0001,
      "adverse",
    ],
    // Non-mortgage debt service: ≤ 15 / 15 – 20 / > 20 %.
    [
      "nonMortgageDebtServiceRatio",
      {
        monthlyNonMortgageLoanRepayment: 1500,
        monthlyMortgageLoanRepayment: 9000,
        monthlyTotalInflow: 10000,
      },
      15,
      "optimum",
    ],
    [
      "nonMortgageDebtServiceRatio",
      { monthlyNonMortgageLoanRepayment: 2000, monthlyTotalInflow: 10000 },
      20,
      "moderate",
    ],
    [
      "nonMortgageDebtServiceRatio",
      { monthlyNonMortgageLoanRepayment: 2000.01, monthlyTotalInflow: 10000 },
      20.0001,
      "adverse",
    ],
    // Debt to asset: ≤ 50 / 50 – 70 / > 70 %.
    ["debtToAssetRatio", { totalPropertyWorth: 1000, totalMortgageBalance: 500 }, 50, "optimum"],
    ["debtToAssetRatio", { totalPropertyWorth: 1000, carLoanBalance: 700 }, 70, "moderate"],
    ["debtToAssetRatio", { totalPropertyWorth: 1000, carLoanBalance: 700.01 }, 70.001, "adverse"],
    // Solvency: ≥ 50 / 30 – 50 / < 30 %.
    ["solvencyRatio", { others: 1000, carLoanBalance: 500 }, 50, "optimum"],
    ["solvencyRatio", { others: 1000, carLoanBalance: 700 }, 30, "moderate"],
    ["solvencyRatio", { others: 1000, carLoanBalance: 700.01 }, 29.999, "adverse"],
    ["solvencyRatio", { others: 1000, carLoanBalance: 1000 }, 0, "adverse"],
    // Net worth: > 0 / = 0 / < 0 (sen).
    ["networth", { others: 0.01 }, 1, "optimum"],
    ["networth", { others: 5, carLoanBalance: 5 }, 0, "moderate"],
    // Liquid assets to net worth: ≥ 15 / 10 – 15 / < 10 %.
    ["liquidAssetToNetworthRatio", { cashAndCashEquivalents: 150, others: 850 }, 15, "optimum"],
    ["liquidAssetToNetworthRatio", { cashAndCashEquivalents: 100, others: 900 }, 10, "moderate"],
    [
      "liquidAssetToNetworthRatio",
      { cashAndCashEquivalents: 99.99, others: 900.01 },
      9.999,
      "adverse",
    ],
    // Progress towards the target: ≥ 100 / 50 – 100 / < 50 %.
    ["progressTowardsTargetNetworth", { others: 1000, targetNetworth: 1000 }, 100, "optimum"],
    ["progressTowardsTargetNetworth", { others: 1500, targetNetworth: 1000 }, 150, "optimum"],
    ["progressTowardsTargetNetworth", { others: 500, targetNetworth: 1000 }, 50, "moderate"],
    ["progressTowardsTargetNetworth", { others: 499.99, targetNetworth: 1000 }, 49.999, "adverse"],
  ])("%s of %j is %d: %s", (key, given, value, band) => {
    const result = ratio(key, given);
    expect(result.value).toBeCloseTo(value, 10);
    expect(result.band).toBe(band);
  });
});

describe("edge cases: never NaN, never Infinity", () => {
  it.each<[string, RatioKey, Parameters<typeof amounts>[0], RatioResult]>([
    [
      "cash with no expenses is unlimited liquidity",
      "basicLiquidityRatio",
      { cashAndCashEquivalents: 100 },
      { value: null, band: "optimum", reason: "no-expenses" },
    ],
    [
      "no cash and no expenses is not applicable",
      "basicLiquidityRatio",
      {},
      { value: null, band: "not-applicable", reason: "no-expenses" },
    ],
    [
      "savings with no gross income is not applicable",
      "savingsRatio",
      { monthlyTotalInflow: 1000 },
      { value: null, band: "not-applicable", reason: "no-income" },
    ],
    [
      "golden ratio with no expenses is not applicable",
      "goldenRatio",
      { monthlyPassiveIncome: 100 },
      { value: null, band: "not-applicable", reason: "no-expenses" },
    ],
    [
      "repayments with no take-home income are adverse",
      "debtServiceRatio",
      { monthlyMortgageLoanRepayment: 100 },
      { value: null, band: "adverse", reason: "no-inflow" },
    ],
    [
      "no repayments and no take-home income is not applicable",
      "debtServiceRatio",
      {},
      { value: null, band: "not-applicable", reason: "no-inflow" },
    ],
    [
      "non-mortgage repayments with no take-home income are adverse",
      "nonMortgageDebtServiceRatio",
      { monthlyNonMortgageLoanRepayment: 1 },
      { value: null, band: "adverse", reason: "no-inflow" },
    ],
    [
      "mortgage repayments alone leave the non-mortgage ratio not applicable without income",
      "nonMortgageDebtServiceRatio",
      { monthlyMortgageLoanRepayment: 1 },
      { value: null, band: "not-applicable", reason: "no-inflow" },
    ],
    [
      "debts with no assets are adverse",
      "debtToAssetRatio",
      { carLoanBalance: 1 },
      { value: null, band: "adverse", reason: "debts-exceed-assets" },
    ],
    [
      "no debts and no assets is not applicable",
      "debtToAssetRatio",
      {},
      { value: null, band: "not-applicable", reason: "no-assets" },
    ],
    [
      "solvency with debts and no assets is insolvent",
      "solvencyRatio",
      { carLoanBalance: 1 },
      { value: null, band: "adverse", reason: "insolvent" },
    ],
    [
      "solvency with nothing entered is not applicable",
      "solvencyRatio",
      {},
      { value: null, band: "not-applicable", reason: "no-assets" },
    ],
    [
      "liquid assets with a zero net worth: not applicable and adverse",
      "liquidAssetToNetworthRatio",
      { cashAndCashEquivalents: 100, carLoanBalance: 100 },
      { value: null, band: "adverse", reason: "non-positive-networth" },
    ],
    [
      "liquid assets with a negative net worth: not applicable and adverse",
      "liquidAssetToNetworthRatio",
      { cashAndCashEquivalents: 100, carLoanBalance: 300 },
      { value: null, band: "adverse", reason: "non-positive-networth" },
    ],
    [
      "no target set",
      "progressTowardsTargetNetworth",
      { others: 100 },
      { value: null, band: "not-applicable", reason: "no-target" },
    ],
  ])("%s", (_story, key, given, expected) => {
    expect(ratio(key, given)).toEqual(expected);
  });

  it("shows spending beyond income as a negative, adverse savings ratio", () => {
    expect(
      ratio("savingsRatio", {
        monthlyTotalInflow: 1000,
        totalMonthlyExpenses: 1200,
        monthlyActiveIncome: 1000,
      }),
    ).toEqual({ value: -20, band: "adverse", reason: "spending-exceeds-income" });
  });

  it("shows a negative solvency when debts exceed assets: adverse, insolvent", () => {
    expect(ratio("solvencyRatio", { others: 1000, totalMortgageBalance: 1500 })).toEqual({
      value: -50,
      band: "adverse",
      reason: "insolvent",
    });
    expect(ratio("debtToAssetRatio", { others: 1000, totalMortgageBalance: 1500 })).toEqual({
      value: 150,
      band: "adverse",
      reason: "debts-exceed-assets",
    });
  });

  it("gives a negative net worth in sen, adverse", () => {
    expect(ratio("networth", { others: 100, carLoanBalance: 150.5 })).toEqual({
      value: -5050,
      band: "adverse",
      reason: "debts-exceed-assets",
    });
  });

  it("shows progress from a negative net worth as a negative percentage", () => {
    expect(
      ratio("progressTowardsTargetNetworth", { carLoanBalance: 100, targetNetworth: 1000 }),
    ).toEqual({
      value: -10,
      band: "adverse",
      reason: "non-positive-networth",
    });
  });

  it("has a finite number or null for every ratio, whatever the inputs", () => {
    const cases = [
      amounts({}),
      HEALTHY,
      amounts({ carLoanBalance: 1 }),
      amounts({
        cashAndCashEquivalents: 1,
        monthlyPassiveIncome: 1,
        monthlyMortgageLoanRepayment: 1,
      }),
      Object.fromEntries(AMOUNT_FIELDS.map((f) => [f, 100_000_000_000_000])) as CalculatorAmounts,
      Object.fromEntries(AMOUNT_FIELDS.map((f) => [f, 1])) as CalculatorAmounts,
    ];
    for (const input of cases) {
      for (const result of Object.values(computeRatios(input))) {
        expect(result.value === null || Number.isFinite(result.value)).toBe(true);
      }
    }
  });

  it("decides bands exactly at the largest amounts, where floats would round", () => {
    const max = 100_000_000_000_000;
    const result = computeRatios({
      ...amounts({}),
      monthlyTotalInflow: max,
      // 35 % of the maximum, plus one sen: just above the edge.
      monthlyMortgageLoanRepayment: 35_000_000_000_001,
    });
    expect(result.debtServiceRatio.band).toBe("moderate");
  });
});

describe("the ratio table", () => {
  it("groups the ten ratios in docs/calculator.md's order", () => {
    expect(RATIO_GROUPS.map((g) => g.key)).toEqual(["cashflowHealth", "debtHealth", "assetHealth"]);
    expect(RATIO_KEYS).toEqual([
      "basicLiquidityRatio",
      "savingsRatio",
      "goldenRatio",
      "debtServiceRatio",
      "nonMortgageDebtServiceRatio",
      "debtToAssetRatio",
      "solvencyRatio",
      "networth",
      "liquidAssetToNetworthRatio",
      "progressTowardsTargetNetworth",
    ]);
  });

  it("gives each ratio its unit and optimum text key", () => {
    expect(RATIOS.basicLiquidityRatio).toEqual({
      unit: "months",
      optimumKey: "ratios.basicLiquidityRatio.optimum",
    });
    expect(RATIOS.networth.unit).toBe("rm");
    expect(RATIO_KEYS.filter((k) => RATIOS[k].unit === "percent")).toHaveLength(8);
  });
});
