/**
 * The ten ratios of docs/calculator.md: the one source of the formulas, imported by the page
 * and by the server (which recomputes every figure of the e-mailed report). Pure: no React, no DOM.
 *
 * Bands are decided on exact fractions (BigInt cross-multiplication), not on rounded floats, so
 * 7 ÷ 20 is exactly 35 % and therefore optimum, as the spec's "the optimum band includes its
 * edge" requires; values are plain numbers, rounded only for display (format.ts).
 */
import type { CalculatorAmounts } from "./inputs";

export type RatioKey =
  | "basicLiquidityRatio"
  | "savingsRatio"
  | "goldenRatio"
  | "debtServiceRatio"
  | "nonMortgageDebtServiceRatio"
  | "debtToAssetRatio"
  | "solvencyRatio"
  | "networth"
  | "liquidAssetToNetworthRatio"
  | "progressTowardsTargetNetworth";

export type RatioBand = "optimum" | "moderate" | "adverse" | "not-applicable";

/**
 * Why a ratio has no figure or what its figure means; stable keys that the page and the e-mail
 * translate (`reasons.<key>` in locales/<lng>/calculator.json).
 */
export type RatioReason =
  | "no-expenses"
  | "no-income"
  | "no-inflow"
  | "no-assets"
  | "no-target"
  | "debts-exceed-assets"
  | "insolvent"
  | "spending-exceeds-income"
  | "non-positive-networth";

/**
 * `value` is in the ratio's unit: months for "months", a percentage for "percent" (35 means
 * 35 %), and integer **sen** for "rm" (net worth). `null` when there is no figure to show: the
 * band and reason then say why (`no-expenses` with band optimum is unlimited liquidity).
 */
export interface RatioResult {
  value: number | null;
  band: RatioBand;
  reason?: RatioReason;
}

export type RatioUnit = "months" | "percent" | "rm";
export type RatioGroupKey = "cashflowHealth" | "debtHealth" | "assetHealth";

export interface RatioDefinition {
  unit: RatioUnit;
  /** Locale key of the "Optimum" text, e.g. `3 – 6 months`. */
  optimumKey: string;
}

/** Results grouped as on the page and in the e-mail, in docs/calculator.md's order. */
export const RATIO_GROUPS: readonly { key: RatioGroupKey; ratios: readonly RatioKey[] }[] = [
  { key: "cashflowHealth", ratios: ["basicLiquidityRatio", "savingsRatio", "goldenRatio"] },
  {
    key: "debtHealth",
    ratios: ["debtServiceRatio", "nonMortgageDebtServiceRatio", "debtToAssetRatio"],
  },
  {
    key: "assetHealth",
    ratios: [
      "solvencyRatio",
      "networth",
      "liquidAssetToNetworthRatio",
      "progressTowardsTargetNetworth",
    ],
  },
];

export const RATIO_KEYS: readonly RatioKey[] = RATIO_GROUPS.flatMap((g) => g.ratios);

const definition = (key: RatioKey, unit: RatioUnit): RatioDefinition => ({
  unit,
  optimumKey: `ratios.${key}.optimum`,
});

export const RATIOS: Readonly<Record<RatioKey, RatioDefinition>> = {
  basicLiquidityRatio: definition("basicLiquidityRatio", "months"),
  savingsRatio: definition("savingsRatio", "percent"),
  goldenRatio: definition("goldenRatio", "percent"),
  debtServiceRatio: definition("debtServiceRatio", "percent"),
  nonMortgageDebtServiceRatio: definition("nonMortgageDebtServiceRatio", "percent"),
  debtToAssetRatio: definition("debtToAssetRatio", "percent"),
  solvencyRatio: definition("solvencyRatio", "percent"),
  networth: definition("networth", "rm"),
  liquidAssetToNetworthRatio: definition("liquidAssetToNetworthRatio", "percent"),
  progressTowardsTargetNetworth: definition("progressTowardsTargetNetworth", "percent"),
};

/** The sums the ratios are built from, all in integer sen. */
export interface DerivedFigures {
  totalAssets: number;
  totalLiabilities: number;
  networth: number;
  grossMonthlyIncome: number;
  /** Negative when spending exceeds take-home income. */
  monthlySavings: number;
}

export function deriveFigures(a: CalculatorAmounts): DerivedFigures {
  const totalAssets =
    a.cashAndCashEquivalents + a.totalPropertyWorth + a.totalBusinessWorth + a.others;
  const totalLiabilities =
    a.totalMortgageBalance + a.carLoanBalance + a.creditCardPersonalLoanBalance;
  return {
    totalAssets,
    totalLiabilities,
    networth: totalAssets - totalLiabilities,
    grossMonthlyIncome: a.monthlyActiveIncome + a.monthlyPassiveIncome,
    monthlySavings: a.monthlyTotalInflow - a.totalMonthlyExpenses,
  };
}

/** Whether numerator ÷ denominator × scale ≥ threshold, exactly (denominator > 0). */
function atLeast(numerator: number, denominator: number, threshold: number, scale: number) {
  return BigInt(numerator) * BigInt(scale) >= BigInt(threshold) * BigInt(denominator);
}

function atMost(numerator: number, denominator: number, threshold: number, scale: number) {
  return BigInt(numerator) * BigInt(scale) <= BigInt(threshold) * BigInt(denominator);
}

/** A ratio where more is better: optimum from `optimum` up, moderate from `moderate` up. */
function higherIsBetter(
  numerator: number,
  denominator: number,
  [optimum, moderate]: readonly [number, number],
  scale: number,
): RatioResult {
  const band = atLeast(numerator, denominator, optimum, scale)
    ? "optimum"
    : atLeast(numerator, denominator, moderate, scale)
      ? "moderate"
      : "adverse";
  return { value: (numerator * scale) / denominator, band };
}

/** A ratio where less is better: optimum up to `optimum`, moderate up to `moderate`. */
function lowerIsBetter(
  numerator: number,
  denominator: number,
  [optimum, moderate]: readonly [number, number],
): RatioResult {
  const band = atMost(numerator, denominator, optimum, 100)
    ? "optimum"
    : atMost(numerator, denominator, moderate, 100)
      ? "moderate"
      : "adverse";
  return { value: (numerator * 100) / denominator, band };
}

const notApplicable = (reason: RatioReason): RatioResult => ({
  value: null,
  band: "not-applicable",
  reason,
});

const withReason = (result: RatioResult, reason: RatioReason | false): RatioResult =>
  reason ? { ...result, reason } : result;

/** A repayment ratio over take-home income: repayments with no income at all is adverse. */
function debtService(repayments: number, inflow: number, bands: readonly [number, number]) {
  if (inflow > 0) return lowerIsBetter(repayments, inflow, bands);
  return repayments > 0
    ? ({ value: null, band: "adverse", reason: "no-inflow" } as const)
    : notApplicable("no-inflow");
}

/**
 * A ratio over total assets: none without assets (adverse when there are debts all the same), and
 * flagged with `reason` whenever the debts exceed the assets.
 */
function overAssets(f: DerivedFigures, ratio: () => RatioResult, reason: RatioReason): RatioResult {
  if (f.totalAssets > 0) return withReason(ratio(), f.networth < 0 && reason);
  return f.totalAssets === 0 && f.totalLiabilities > 0
    ? { value: null, band: "adverse", reason }
    : notApplicable("no-assets");
}

/** Computes the ten ratios from validated amounts (integer sen, see inputs.ts). */
export function computeRatios(amounts: CalculatorAmounts): Record<RatioKey, RatioResult> {
  const f = deriveFigures(amounts);
  const cash = amounts.cashAndCashEquivalents;
  const expenses = amounts.totalMonthlyExpenses;
  const target = amounts.targetNetworth;

  return {
    basicLiquidityRatio:
      expenses > 0
        ? higherIsBetter(cash, expenses, [3, 1], 1)
        : cash > 0
          ? { value: null, band: "optimum", reason: "no-expenses" }
          : notApplicable("no-expenses"),

    savingsRatio:
      f.grossMonthlyIncome > 0
        ? withReason(
            higherIsBetter(f.monthlySavings, f.grossMonthlyIncome, [10, 5], 100),
            f.monthlySavings < 0 && "spending-exceeds-income",
          )
        : notApplicable("no-income"),

    goldenRatio:
      expenses > 0
        ? higherIsBetter(amounts.monthlyPassiveIncome, expenses, [100, 25], 100)
        : notApplicable("no-expenses"),

    debtServiceRatio: debtService(
      amounts.monthlyMortgageLoanRepayment + amounts.monthlyNonMortgageLoanRepayment,
      amounts.monthlyTotalInflow,
      [35, 45],
    ),

    nonMortgageDebtServiceRatio: debtService(
      amounts.monthlyNonMortgageLoanRepayment,
      amounts.monthlyTotalInflow,
      [15, 20],
    ),

    debtToAssetRatio: overAssets(
      f,
      () => lowerIsBetter(f.totalLiabilities, f.totalAssets, [50, 70]),
      "debts-exceed-assets",
    ),

    solvencyRatio: overAssets(
      f,
      () => higherIsBetter(f.networth, f.totalAssets, [50, 30], 100),
      "insolvent",
    ),

    networth: {
      value: f.networth,
      band: f.networth > 0 ? "optimum" : f.networth === 0 ? "moderate" : "adverse",
      ...(f.networth < 0 ? { reason: "debts-exceed-assets" as const } : {}),
    },

    // docs/calculator.md: with net worth ≤ 0 this ratio is "not applicable and adverse": no figure
    // (a share of a negative worth means nothing), but flagged as a warning.
    liquidAssetToNetworthRatio:
      f.networth > 0
        ? higherIsBetter(cash, f.networth, [15, 10], 100)
        : { value: null, band: "adverse", reason: "non-positive-networth" },

    progressTowardsTargetNetworth:
      target > 0
        ? withReason(
            higherIsBetter(f.networth, target, [100, 50], 100),
            f.networth < 0 && "non-positive-networth",
          )
        : notApplicable("no-target"),
  };
}
