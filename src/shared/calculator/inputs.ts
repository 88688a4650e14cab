/**
 * The calculator's inputs (docs/calculator.md) and their rules, shared by the page and by the
 * server's report route so both accept and refuse exactly the same figures. Pure: no React, no DOM.
 *
 * Amounts are integer sen, parsed straight from the text the visitor typed: `0.29` becomes 29 by
 * string arithmetic, never `0.29 * 100` (which is 28.999999999999996 in floating point).
 */

export type CalculatorSection = "top" | "assets" | "liabilities" | "cashflow";

/** The 14 amounts, in the form's order. */
export const AMOUNT_FIELDS = [
  "targetNetworth",
  "cashAndCashEquivalents",
  "totalPropertyWorth",
  "totalBusinessWorth",
  "others",
  "totalMortgageBalance",
  "carLoanBalance",
  "creditCardPersonalLoanBalance",
  "monthlyTotalInflow",
  "monthlyActiveIncome",
  "monthlyPassiveIncome",
  "totalMonthlyExpenses",
  "monthlyMortgageLoanRepayment",
  "monthlyNonMortgageLoanRepayment",
] as const;

export type AmountField = (typeof AMOUNT_FIELDS)[number];
export type CalculatorField = "name" | AmountField;

export interface CalculatorFieldSpec {
  key: CalculatorField;
  section: CalculatorSection;
  kind: "text" | "amount";
  /** Whether docs/calculator.md gives the field a help text (`fields.<key>.help` in the locale). */
  hasHelp: boolean;
}

/** Every field of the form, in order, with its section (the e-mail address is the dialog's). */
export const CALCULATOR_FIELDS: readonly CalculatorFieldSpec[] = [
  { key: "name", section: "top", kind: "text", hasHelp: true },
  { key: "targetNetworth", section: "top", kind: "amount", hasHelp: true },
  { key: "cashAndCashEquivalents", section: "assets", kind: "amount", hasHelp: true },
  { key: "totalPropertyWorth", section: "assets", kind: "amount", hasHelp: true },
  { key: "totalBusinessWorth", section: "assets", kind: "amount", hasHelp: true },
  { key: "others", section: "assets", kind: "amount", hasHelp: true },
  { key: "totalMortgageBalance", section: "liabilities", kind: "amount", hasHelp: false },
  { key: "carLoanBalance", section: "liabilities", kind: "amount", hasHelp: false },
  { key: "creditCardPersonalLoanBalance", section: "liabilities", kind: "amount", hasHelp: false },
  { key: "monthlyTotalInflow", section: "cashflow", kind: "amount", hasHelp: true },
  { key: "monthlyActiveIncome", section: "cashflow", kind: "amount", hasHelp: true },
  { key: "monthlyPassiveIncome", section: "cashflow", kind: "amount", hasHelp: true },
  { key: "totalMonthlyExpenses", section: "cashflow", kind: "amount", hasHelp: true },
  { key: "monthlyMortgageLoanRepayment", section: "cashflow", kind: "amount", hasHelp: false },
  { key: "monthlyNonMortgageLoanRepayment", section: "cashflow", kind: "amount", hasHelp: true },
];

/**
 * Integer sen for every amount. A blank amount counts as 0; for `targetNetworth`, 0 (blank or
 * typed) means "no target set".
 */
export type CalculatorAmounts = Record<AmountField, number>;

export const NAME_MAX_LENGTH = 100;

/**
 * RM 1,000,000,000,000: far beyond any household, and small enough that sums of several amounts
 * (and those sums times 100 for percentages) stay exact in the comparisons of ratios.ts.
 */
export const MAX_AMOUNT_SEN = 100_000_000_000_000;

export type AmountError = "negative" | "notANumber" | "tooManyDecimals" | "tooLarge";
/** `notText`: the server received something other than a string for the name. */
export type NameError = "tooLong" | "notText";
export type CalculatorFieldError = AmountError | NameError;

export type ParsedAmount = { ok: true; sen: number | null } | { ok: false; error: AmountError };

// Digits with an optional decimal part; thousands separators are allowed only where they belong
// (`1,234.5`), so a slip such as `1,2` is refused instead of being read as 12.
const PLAIN = /^(\d*)(?:\.(\d*))?$/;
const GROUPED = /^(\d{1,3}(?:,\d{3})+)(?:\.(\d*))?$/;
const SIGNED = /^[-−‒–]\s*[\d.,]/;

/** Parses what the visitor typed (`"1,234.56"`, `".5"`, `"12"`) into sen; blank is `null`. */
export function parseAmount(text: string): ParsedAmount {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: true, sen: null };
  if (SIGNED.test(trimmed)) {
    // Only call it negative when what follows the sign would otherwise be a number.
    const rest = parseAmount(trimmed.replace(/^[-−‒–]\s*/, ""));
    return { ok: false, error: rest.ok || rest.error !== "notANumber" ? "negative" : "notANumber" };
  }
  const match = PLAIN.exec(trimmed) ?? GROUPED.exec(trimmed);
  const wholeText = match?.[1]?.replace(/,/g, "") ?? "";
  const fraction = match?.[2] ?? "";
  if (!match || (wholeText === "" && fraction === "")) return { ok: false, error: "notANumber" };
  if (fraction.length > 2) return { ok: false, error: "tooManyDecimals" };

  const whole = wholeText.replace(/^0+(?=\d)/, "");
  // More than 13 digits of ringgit is above the maximum whatever the digits are; checking the
  // length first keeps Number() below 2^53, where integer arithmetic is exact.
  if (whole.length > 13) return { ok: false, error: "tooLarge" };
  const sen = Number(whole || "0") * 100 + Number(fraction.padEnd(2, "0"));
  if (sen > MAX_AMOUNT_SEN) return { ok: false, error: "tooLarge" };
  return { ok: true, sen };
}

export function validateName(
  text: string,
): { ok: true; name: string } | { ok: false; error: NameError } {
  const name = text.trim();
  return name.length > NAME_MAX_LENGTH ? { ok: false, error: "tooLong" } : { ok: true, name };
}

export type ValidatedInputs =
  | { ok: true; amounts: CalculatorAmounts; name?: string }
  | { ok: false; errors: Partial<Record<CalculatorField, CalculatorFieldError>> };

/** A raw value as text: the form and the report body send strings; numbers are tolerated. */
function asText(value: unknown): string | undefined {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/**
 * Checks every field of a submitted form (keys not in CALCULATOR_FIELDS are ignored) and returns
 * either the amounts in sen with the trimmed name (absent when blank), or one error per bad field.
 */
export function validateCalculatorInputs(raw: Record<string, unknown>): ValidatedInputs {
  const errors: Partial<Record<CalculatorField, CalculatorFieldError>> = {};
  const amounts = Object.fromEntries(AMOUNT_FIELDS.map((f) => [f, 0])) as CalculatorAmounts;

  for (const field of AMOUNT_FIELDS) {
    const text = asText(raw[field]);
    const parsed =
      text === undefined ? ({ ok: false, error: "notANumber" } as const) : parseAmount(text);
    if (parsed.ok) amounts[field] = parsed.sen ?? 0;
    else errors[field] = parsed.error;
  }

  let name: string | undefined;
  const nameText = raw.name === undefined || raw.name === null ? "" : raw.name;
  if (typeof nameText !== "string") {
    errors.name = "notText";
  } else {
    const checked = validateName(nameText);
    if (checked.ok) name = checked.name || undefined;
    else errors.name = checked.error;
  }

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return name === undefined ? { ok: true, amounts } : { ok: true, amounts, name };
}
