/**
 * The visitor's figures are kept in this browser's local storage only (the page promises they
 * stay on the device unless a report is requested), under one key, as the text they typed.
 */
import { CALCULATOR_FIELDS, type CalculatorField } from "../shared/calculator/inputs";

export const INPUTS_STORAGE_KEY = "calculator.inputs";

export type FormTexts = Record<CalculatorField, string>;

export const EMPTY_FORM: FormTexts = Object.fromEntries(
  CALCULATOR_FIELDS.map((field) => [field.key, ""]),
) as FormTexts;

/** The saved figures, ignoring anything unknown or malformed (an older page, a hand edit). */
export function loadFormTexts(): FormTexts {
  try {
    const saved: unknown = JSON.parse(localStorage.getItem(INPUTS_STORAGE_KEY) ?? "null");
    if (typeof saved !== "object" || saved === null) return EMPTY_FORM;
    const form = { ...EMPTY_FORM };
    for (const { key } of CALCULATOR_FIELDS) {
      const value = (saved as Record<string, unknown>)[key];
      if (typeof value === "string") form[key] = value;
    }
    return form;
  } catch {
    return EMPTY_FORM;
  }
}

export function saveFormTexts(form: FormTexts): void {
  try {
    if (Object.values(form).every((text) => text === "")) {
      localStorage.removeItem(INPUTS_STORAGE_KEY);
    } else {
      localStorage.setItem(INPUTS_STORAGE_KEY, JSON.stringify(form));
    }
  } catch {
    // Storage unavailable (private mode, quota): the figures then last for this visit only.
  }
}
