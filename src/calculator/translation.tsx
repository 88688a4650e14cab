/** The page's language and texts, provided to every component of the calculator. */
import { createContext, useContext } from "react";
import type { Language } from "../shared/language";
import type { Translate } from "./i18n";

export interface CalculatorTranslation {
  language: Language;
  t: Translate;
  switchLanguage: (language: Language) => void;
}

export const TranslationContext = createContext<CalculatorTranslation | null>(null);

export function useTranslation(): CalculatorTranslation {
  const value = useContext(TranslationContext);
  if (!value) throw new Error("useTranslation() needs the CalculatorApp around it");
  return value;
}
