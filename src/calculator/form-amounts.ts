/** The form's texts as amounts for the ratios: a field that does not parse counts as blank. */
import { AMOUNT_FIELDS, parseAmount, type CalculatorAmounts } from "../shared/calculator/inputs";
import type { FormTexts } from "./storage";

export function amountsFromForm(form: FormTexts): {
  amounts: CalculatorAmounts;
  hasErrors: boolean;
} {
  let hasErrors = false;
  const amounts = Object.fromEntries(
    AMOUNT_FIELDS.map((field) => {
      const parsed = parseAmount(form[field]);
      if (!parsed.ok) hasErrors = true;
      return [field, parsed.ok ? (parsed.sen ?? 0) : 0];
    }),
  ) as CalculatorAmounts;
  return { amounts, hasErrors };
}
