/** One field's error key (`errors.<key>` in the locale), or undefined when the text is fine. */
import { parseAmount, validateName, type CalculatorField } from "../shared/calculator/inputs";

export function validateField(field: CalculatorField, text: string): string | undefined {
  if (field === "name") {
    const checked = validateName(text);
    return checked.ok ? undefined : checked.error;
  }
  const parsed = parseAmount(text);
  return parsed.ok ? undefined : parsed.error;
}
